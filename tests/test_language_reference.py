"""docs/reference.md is generated from the interpreter's own tables
(sdy_dsl/language_reference.py) and cannot drift from them (issue #23)."""
from __future__ import annotations

import json
from pathlib import Path

from lit_runner import run_sdy_dsl
from sdy_dsl import language_reference as ref
from sdy_dsl.interp.builtins import BUILTINS
from sdy_dsl.interp.rulefile import RULE_KEYS, TOP_KEYS

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_reference_page_is_up_to_date():
    # On a failure: python -m sdy_dsl.language_reference > docs/reference.md
    assert (DOCS / "reference.md").read_text() == ref.reference_page()


def test_every_key_is_described():
    schema = ref._schema()
    assert set(schema["properties"]) == TOP_KEYS
    assert set(schema["$defs"]["rule"]["properties"]) == RULE_KEYS
    for key, description in ref.key_rows(TOP_KEYS, schema["properties"]) + ref.key_rows(
            RULE_KEYS, schema["$defs"]["rule"]["properties"]):
        assert description, key


def test_every_builtin_is_listed_with_its_signature():
    page = ref.reference_page()
    for name, fn in BUILTINS.items():
        assert f"| `{fn.signature_text()}` |" in page, name
    assert "| `range(n: int) -> list[int]` | query | The integers 0, 1, ..., n-1" in page


def test_builders_command_lists_arguments_and_roles():
    rc, out, err = run_sdy_dsl(["builders"])
    assert rc == 0, err
    assert ("dot_general()\n    One factor per batching dimension pair, per non-contracting dimension of each "
            "side (in the result's order), and a reduction factor per contracting dimension pair.\n"
            "    factor roles: batch, lhs_non_contracting, rhs_non_contracting, contracting\n"
            "    used by: stablehlo.dot_general\n") in out
    assert ("pointwise_with_mismatch(sizes_of: str = operand 0, compare_with: str = result 0, mismatch: "
            "pass_through | reduction | need_replication | permutation = need_replication, blocked: never | "
            "always | when_conservative = never)\n") in out
    rc, out, err = run_sdy_dsl(["builders", "--json"])
    assert rc == 0, err
    rows = {row["name"]: row for row in json.loads(out)}
    assert rows["dot"]["roles"] == ["lhs_non_contracting", "rhs_non_contracting", "contracting"]


def test_rule_language_page_names_every_builtin_and_key():
    text = (DOCS / "rule-language.md").read_text()
    assert [name for name in BUILTINS if f"`{name}(" not in text] == []
    table = text[text.index("| key | required | meaning |"):]
    table = table[:table.index("\n\n")]
    assert {line.split("`")[1] for line in table.splitlines()[2:]} == TOP_KEYS
