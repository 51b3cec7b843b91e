"""A pass's options are one frozen, typed object built from its rule file's
`options:` (sdy_dsl/interp/options.py): the engines read fields by Python
name, rule-file expressions and hooks by the declared name."""
from __future__ import annotations

import dataclasses

import pytest

from sdy_dsl.passes import PassRegistry


@pytest.fixture(scope="module")
def passdef():
    return PassRegistry().get("sdy-user-priority-propagate")  # options of three files (extends)


def test_fields_are_the_declared_options_with_their_defaults(passdef):
    options = passdef.make_options()
    fields = {f.name: (f.type, f.default) for f in dataclasses.fields(options)}
    assert fields["conservative_propagation"] == (bool, False)
    assert fields["propagation_strategy"] == (str, "aggressive")
    assert fields["run_op_priority_propagation"] == (bool, True)
    assert set(options) == set(passdef.options)  # by declared name, as a read-only mapping


def test_given_values_override_and_are_read_both_ways(passdef):
    options = passdef.make_options({"propagation-strategy": "basic-then-aggressive"})
    assert options.propagation_strategy == options["propagation-strategy"] == "basic-then-aggressive"
    assert options.get("keep-sharding-rules") is False
    assert options.replace(keep_sharding_rules=True).keep_sharding_rules is True
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.conservative_propagation = True


def test_an_option_the_pass_does_not_declare_is_refused(passdef):
    with pytest.raises(KeyError, match="has no option 'conservative'"):
        passdef.make_options({"conservative": True})
