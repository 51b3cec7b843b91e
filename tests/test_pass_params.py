"""A pass's params are one typed object built from its rule file's `params:`
and `param-types:` by one loader (sdy_dsl/interp/param_types.py, options.py):
every pass declares them (none where it declares no `param-types:`), so an
unknown or misspelled param is a located error on every pass, in its own
file or in an `extends:` file of a `--rules` directory."""
from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from lit_runner import run_sdy_dsl
from sdy_dsl.errors import RuleFileError
from sdy_dsl.passes import PassRegistry


def _registry_with(tmp_path, name: str, text: str) -> PassRegistry:
    rules = tmp_path / name
    rules.mkdir()
    (rules / "tuning.yaml").write_text(text)
    return PassRegistry([rules])


def test_every_pass_refuses_an_unknown_param_from_an_extends_file(tmp_path):
    names = PassRegistry().names()  # what `sdy-dsl passes` lists
    assert len(names) >= 40
    for name in names:
        registry = _registry_with(tmp_path, name, f"extends: {name}\nparams:\n  no-such-param: 1\n")
        with pytest.raises(RuleFileError) as caught:
            registry.get(name)
        message = str(caught.value)
        assert message.startswith(f"{tmp_path}/{name}/tuning.yaml:3:3: error: unknown param 'no-such-param' ("), \
            (name, message)
        declared = PassRegistry().get(name).param_decls
        assert message.endswith(f"({name} takes: {', '.join(declared)})" if declared
                                else f"({name} takes no params)"), (name, message)


def test_every_declared_param_misspelled_gets_a_suggestion(tmp_path):
    registry = PassRegistry()
    checked = 0
    for name in registry.names():
        for param in registry.get(name).param_decls:
            typo = param[:-1]
            other = _registry_with(tmp_path, f"{name}-{param}", f"extends: {name}\nparams:\n  {typo}: 1\n")
            with pytest.raises(RuleFileError, match=rf"tuning.yaml:3:3: error: unknown param '{typo}' "
                                                    rf"\(did you mean '{param}'\?\)$"):
                other.get(name)
            checked += 1
    assert checked >= 15


def test_an_unknown_param_of_a_pass_without_params_fails_the_run(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "collectives.yaml").write_text(
        "extends: sdy-reshard-to-collectives\nparams:\n  keep-redundant: true\n")
    module = tmp_path / "m.mlir"
    module.write_text('sdy.mesh @mesh = <["x"=2]>\nfunc.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n'
                      '  return %arg0 : tensor<8xf32>\n}\n')
    rc, out, err = run_sdy_dsl(["opt", str(module), "-sdy-reshard-to-collectives", "--rules", str(tmp_path / "rules")])
    assert (rc, out) == (1, "")
    assert err.strip().startswith(f"{tmp_path}/rules/collectives.yaml:3:3: error: unknown param 'keep-redundant' (")


def test_params_are_one_typed_object_read_as_attributes():
    passdef = PassRegistry().get("sdy-insert-explicit-reshards")
    params = passdef.params
    assert params.after_op == ["all-reduces", "result-reshards"]
    assert params["after-op"] is params.after_op  # the declared name, as a read-only mapping
    assert set(params) == set(passdef.param_decls)
    with pytest.raises(dataclasses.FrozenInstanceError):
        params.after_op = []
    assert PassRegistry().get("sdy-close-shardings").params == PassRegistry().get("sdy-close-shardings").params
    assert len(PassRegistry().get("sdy-close-shardings").params) == 0


def test_a_declared_param_needs_a_default_and_is_not_deleted(tmp_path):
    registry = _registry_with(tmp_path, "declared", "pass: my-pass\nsummary: s\nrules: []\n"
                              "param-types:\n  depth: {type: int, help: how deep}\n")
    with pytest.raises(RuleFileError, match=r"tuning.yaml:5:10: error: param 'depth' has no value "
                                            r"\(its default goes under 'params:'\)"):
        registry.get("my-pass")
    registry = _registry_with(tmp_path, "deleted", "extends: sdy-insert-explicit-reshards\n"
                              "params:\n  after-op: delete\n")
    with pytest.raises(RuleFileError, match=r"tuning.yaml:3:13: error: param 'after-op' cannot be deleted"):
        registry.get("sdy-insert-explicit-reshards")


def test_a_param_may_not_hide_a_method_of_the_params_object(tmp_path):
    registry = _registry_with(tmp_path, "reserved", "pass: my-pass\nsummary: s\nrules: []\n"
                              "param-types:\n  values: int\nparams:\n  values: 1\n")
    with pytest.raises(RuleFileError, match=r"tuning.yaml:5:3: error: param name 'values' is reserved"):
        registry.get("my-pass")


def test_a_users_pass_may_type_a_param_by_any_vocabulary(tmp_path):
    """In a fresh process (no hook has imported the runtime modules that register
    the vocabularies), a user's own pass names one its hooks never import."""
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "mine.yaml").write_text("pass: my-pass\nsummary: s\nrules: []\n"
                                     "param-types:\n  order: {list: {vocabulary: collective-step}}\n"
                                     "params:\n  order: [all-gather]\n")
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-m", "sdy_dsl", "passes", "my-pass", "--rules", str(rules)],
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(root)})
    assert (done.returncode, done.stderr) == (0, "")
    assert "      order: list of {all-slice, collective-permute, all-to-all, all-gather} = [\"all-gather\"]" in \
        done.stdout


def test_passes_shows_params_with_types_defaults_and_help():
    rc, out, err = run_sdy_dsl(["passes", "sdy-insert-explicit-reshards"])
    assert rc == 0, err
    assert ("      after-op: list of {all-reduces, result-reshards} (each once) = "
            '["all-reduces", "result-reshards"]\n'
            "          what follows an op, nearest first\n") in out
    rc, out, err = run_sdy_dsl(["passes", "sdy-insert-explicit-reshards", "--json"])
    assert json.loads(out)[0]["params"]["full-version-ops"] == {
        "type": "list of op-name", "default": ["func.call", "mhlo.ragged_dot"], "help": "ops always fully resolved"}
