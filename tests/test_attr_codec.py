"""The attribute codec's reads (sdy_dsl/runtime/sharding.py `AttrCodec`): a
per-value attribute is read body by body through the codec's cache of printed
tensor bodies (issue #29); whatever path it takes, it reads as the whole-text
parser reads it."""
from __future__ import annotations

import pytest
from jaxlib.mlir import ir

from sdy_dsl.mlir_context import make_context
from sdy_dsl.runtime.sharding import AttrCodec, parse_sharding_per_value, parse_tensor_sharding

PER_VALUE = [
    '#sdy.sharding_per_value<[]>',
    '#sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>',
    '#sdy.sharding_per_value<[<@mesh, [{"a", ?}p1, {"b":(1)2}]>, <@mesh, []>, <@mesh, [{"a"}, {}]>]>',
    '#sdy.sharding_per_value<[<@mesh, [{}], replicated={"b"}>, <@mesh, [{?}], unreduced={"a"}>]>',
    '#sdy.sharding_per_value<[<mesh<["a"=2]>, [{"a"}]>, <@mesh, [{}]>]>',
    '#sdy.sharding_per_value<[<@"odd>, <name", [{"a"}]>, <@mesh, [{}]>]>',
    # (an axis name holding the bodies' separator: the split fails, the whole text is read)
    '#sdy.sharding_per_value<[<@mesh, [{"a>, <b"}, {}]>, <@mesh, [{}, {"y"}]>]>',
]


@pytest.mark.parametrize("text", PER_VALUE)
def test_a_per_value_attribute_reads_as_its_whole_text_parses(text):
    with make_context():
        codec = AttrCodec()
        attr = ir.Attribute.parse(text)
        assert codec.sharding_per_value(attr) == parse_sharding_per_value(str(attr))


def test_a_tensor_body_is_parsed_once_for_all_attributes_holding_it():
    with make_context():
        codec = AttrCodec()
        body = '@mesh, [{"a"}, {}]'
        single = codec.tensor_sharding(ir.Attribute.parse(f"#sdy.sharding<{body}>"))
        listed = codec.sharding_per_value(ir.Attribute.parse(f"#sdy.sharding_per_value<[<{body}>, <{body}>]>"))
        assert single == parse_tensor_sharding(f"#sdy.sharding<{body}>")
        assert listed[0] is single and listed[1] is single
