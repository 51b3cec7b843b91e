"""The hand-written parsers (interp/fast_syntax.py) agree with the pyparsing grammars
(interp/grammar.py), which define the languages: same trees, same node offsets
(`repr` shows them), and every input the fast path answers is one the grammar
accepts. Also the cache of loaded YAML documents (interp/yaml_loader.py)."""
import os
import pickle
import random
from pathlib import Path

import pyparsing as pp
import pytest

from sdy_dsl.errors import RuleFileError
from sdy_dsl.interp import grammar, syntax, yaml_loader
from sdy_dsl.interp.fast_syntax import parse_expr_fast, parse_pattern_fast

RULES = Path(__file__).resolve().parent.parent / "rules"


def grammar_expr(text):
    try:
        return repr(grammar.EXPR.parse_string(text, parse_all=True)[0])
    except pp.ParseBaseException:
        return None


def grammar_pattern(text):
    try:
        return repr(syntax.Pattern(list(grammar.PATTERN.parse_string(text, parse_all=True))))
    except pp.ParseBaseException:
        return None


def agrees(fast, reference, text):
    if fast is not None:
        assert repr(fast) == reference, f"fast parser differs from the grammar on {text!r}"
    return fast is not None


def rule_file_texts():
    """Every expression and pattern string of the built-in rule files."""
    exprs, patterns = [], []
    for path in sorted(RULES.rglob("*.yaml")):
        doc = yaml_loader.load_yaml(path)
        if not isinstance(doc, dict) or "pass" not in doc:
            continue
        for rule in doc.get("rules") or []:
            patterns.append(str(rule["match"]))
            where = rule.get("where") or []
            exprs += [str(w) for w in ([where] if isinstance(where, str) else where)]
            rewrite = rule["rewrite"]
            for action in [rewrite] if isinstance(rewrite, str) else rewrite:
                if isinstance(action, str) and isinstance(rewrite, list):
                    exprs.append(str(action))
                elif isinstance(action, str):
                    patterns.append(str(action))
                elif isinstance(action, dict):
                    patterns += [str(v) for v in action.values()]
    return exprs, patterns


def test_rule_files_parse_on_the_fast_path():
    exprs, patterns = rule_file_texts()
    assert len(exprs) > 50 and len(patterns) > 20
    for text in exprs:
        reference = grammar_expr(text)
        assert agrees(parse_expr_fast(text), reference, text) == (reference is not None), text
    for text in patterns:
        reference = grammar_pattern(text)
        assert agrees(parse_pattern_fast(text), reference, text) == (reference is not None), text


EXPRESSIONS = [
    "  f($x)", "a(1) ==  f($x)", "$a and  not  g()", "$a +  f(1).x", " [ f(1), 2]", "$x :=  f(1)",
    "x(1)   if  g()  else  h()", "( $a )", " 1 + 2 * 3", "$a not   in $b", "$a not\nin $b", " not  not $a",
    "  true ", "  'a b' ", '"t"\n< \'s\'', "$p  => none", "(\n's')", "$v:=  \"t\"", "\tf(\t$a)",
    "1and $a", "$a.if", "%x%y", "$a -1", "$a--1", "$a- -1", "-1-1", "f(1,)", "[1,]", "$a.1", "$ a",
    "f . x", "if(1)", "true(1)", "none_of(1)", "notx(1)", "in_(1)", "$a notin $b", "1in $b", "$a // $b % 2",
    "$a ** $b", "((($a)))", "f(())", "f(\n)", "$x := $a if $b else $c", "$x => $y => $x", "'a\\'b'", "$é",
]
PATTERNS = [
    "%r = sdy.sharding_constraint(%x) {sharding = $s}",
    "%c = stablehlo.constant() ; %r = stablehlo.broadcast_in_dim(%c)",
    "%rs* = sdy.manual_computation(%ins*) {manual_axes = $axes} ({^bb(%args*): sdy.return(%outs*)})",
    "$op = * {!sdy.sharding, a.b = $x ?, \"q.n\" = _, n = #sdy.sharding<@m, [{\"x\"}]>, ...}",
    "  \n %r = a | b.c(%x *, _, *)  ", "\t%r = a(%x)", "%r = a() {x = _foo}", "%r = a {x = <(i)->(j)>}",
    "%r = a ($body, $r: {^ bb0(%a, %b*): c.d(%a)}, {})", "%r = a ()", "%r = sdy.reshard(%x", "x {a = }",
    "%a, %b = c(%x) {}; $l = d(%a, %b)", "a(%x) {k = \"s,}\"}", "a {k = \"q\\\"d\"}",
]


@pytest.mark.parametrize("text", EXPRESSIONS)
def test_expression_edge_cases(text):
    agrees(parse_expr_fast(text), grammar_expr(text), text)


@pytest.mark.parametrize("text", PATTERNS)
def test_pattern_edge_cases(text):
    agrees(parse_pattern_fast(text), grammar_pattern(text), text)


def random_expression(rng, depth=0):
    ws = lambda: rng.choice(["", " ", "  ", "\n", "\t"])
    if depth > 3 or rng.random() < 0.3:
        return rng.choice(["$a", "%x", "1", "-2", "true", "none", "'s'", '"t"', "f()", "g($a, 1)", "[]",
                           "[1, $a]", "$s.rank", "f(1).x"])
    sub = lambda: random_expression(rng, depth + 1)
    return rng.choice([
        lambda: sub() + ws() + rng.choice(["+", "-", "*", "//", "%", "==", "!=", "<", ">=", "in", "not in",
                                           "and", "or"]) + ws() + sub(),
        lambda: "not" + rng.choice([" ", "\n", "("]) + sub(),
        lambda: "(" + ws() + sub() + ws() + ")",
        lambda: "f" + ws() + "(" + ws() + ("," + ws()).join(sub() for _ in range(rng.randint(0, 3))) + ")",
        lambda: "[" + ws() + ("," + ws()).join(sub() for _ in range(rng.randint(0, 2))) + ws() + "]",
        lambda: sub() + ws() + "if" + ws() + sub() + ws() + "else" + ws() + sub(),
        lambda: "$v" + ws() + ":=" + ws() + sub(),
        lambda: "$p" + ws() + "=>" + ws() + sub(),
    ])()


def random_pattern(rng, depth=0):
    ws = lambda: rng.choice(["", " ", "\n", "\t"])
    var = lambda: rng.choice(["%x", "%y1", "%xs*", "%xs *"])
    items = lambda make, k: ("," + ws()).join(make() for _ in range(rng.randint(0, k)))
    attr = lambda: rng.choice(["...", "!s", "s = $v", "a.b = $v ?", "s = _", '"q" = 1 : i64', "s", "d = [1, {a}]"])
    line = rng.choice(["", "$op = ", "%r = ", "%a, %b = "]) + rng.choice(["*", "a.b", "a | b.c"])
    if rng.random() < 0.7:
        line += ws() + "(" + items(lambda: rng.choice([var(), "_", "*"]), 3) + ")"
    if rng.random() < 0.5:
        line += ws() + "{" + items(attr, 3) + "}"
    if depth < 2 and rng.random() < 0.3:
        block = lambda: "{" + ws() + rng.choice(["", "^bb(" + items(var, 2) + "):"]) + ws() + (
            ";" + ws()).join(random_pattern(rng, depth + 1) for _ in range(rng.randint(0, 2))) + "}"
        line += ws() + "(" + rng.choice(["$body", "$r: " + block(), block()]) + ")"
    return line


def mutate(rng, text):
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        pos = rng.randint(0, len(chars))
        if rng.random() < 0.4 and chars:
            del chars[min(pos, len(chars) - 1)]
        else:
            chars.insert(pos, rng.choice(list("()[]{},.$%'\"\\ \n-+<>=!:;|*_?^") + ["not", "in", "and", "..."]))
    return "".join(chars)


def test_random_expressions_agree():
    rng = random.Random(20261122)
    for _ in range(40):
        text = random_expression(rng)
        for variant in (text, mutate(rng, text)):
            agrees(parse_expr_fast(variant), grammar_expr(variant), variant)


def test_random_patterns_agree():
    rng = random.Random(20261122)
    for _ in range(100):
        text = "; ".join(random_pattern(rng) for _ in range(rng.randint(1, 2)))
        for variant in (text, mutate(rng, text)):
            agrees(parse_pattern_fast(variant), grammar_pattern(variant), variant)


def test_syntax_errors_come_from_the_grammar():
    # The positions and messages sdy-dsl gave before the fast parsers existed.
    with pytest.raises(syntax.SyntaxErrorAt) as e:
        syntax.parse_expr("f($a,")
    assert (e.value.offset, e.value.message) == (4, "invalid expression: Expected ')'")
    with pytest.raises(syntax.SyntaxErrorAt) as e:
        syntax.parse_pattern("%r = sdy.reshard(%x")
    assert (e.value.offset, e.value.message) == (
        16, "invalid pattern: cannot parse from here (unclosed bracket or unknown syntax)")


# --------------------------------------------------------------------------- YAML document cache


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("SDY_DSL_NO_CACHE", raising=False)
    monkeypatch.setattr(yaml_loader._DocumentCache, "_instance", False)
    yield tmp_path / "cache" / "sdy-dsl"
    yaml_loader._DocumentCache._instance = False


def locs(node):
    """Every position in a loaded document, as text, in document order."""
    out = [str(getattr(node, "loc", ""))]
    if isinstance(node, dict):
        out += [f"{k}@{node.key_locs[k]}={node.value_locs[k]}" for k in node]
        for value in node.values():
            out += locs(value)
    elif isinstance(node, list):
        out += [str(loc) for loc in node.item_locs]
        for item in node:
            out += locs(item)
    return out


RULE_TEXT = "pass: sdy-x\nsummary: s\nrules:\n  - id: r\n    match: '$a = *'\n    where: |\n      f($a)\n    rewrite: []\n"


def test_cached_document_equals_a_fresh_load(cache_dir, tmp_path):
    path = tmp_path / "a.yaml"
    path.write_text(RULE_TEXT)
    fresh = yaml_loader.load_yaml(path)
    assert len(list(cache_dir.glob("*.pickle"))) == 1
    cached = yaml_loader.load_yaml(path)
    assert cached == fresh and cached is not fresh
    assert locs(cached) == locs(fresh)
    assert type(cached["rules"][0]["where"]) is yaml_loader.LocStr


def test_same_text_under_another_path_gets_that_path(cache_dir, tmp_path):
    (tmp_path / "a.yaml").write_text(RULE_TEXT)
    (tmp_path / "b.yaml").write_text(RULE_TEXT)
    yaml_loader.load_yaml(tmp_path / "a.yaml")
    b = yaml_loader.load_yaml(tmp_path / "b.yaml")
    assert len(list(cache_dir.glob("*.pickle"))) == 1
    assert all(str(tmp_path / "b.yaml") in loc for loc in locs(b) if loc)
    assert str(b["rules"][0]["match"].loc) == f"{tmp_path / 'b.yaml'}:5:13"


def test_corrupt_entries_are_ignored(cache_dir, tmp_path):
    path = tmp_path / "a.yaml"
    path.write_text(RULE_TEXT)
    fresh = yaml_loader.load_yaml(path)
    [entry] = cache_dir.glob("*.pickle")
    for damaged in (b"garbage", entry.read_bytes()[:40], b""):
        entry.write_bytes(damaged)
        assert locs(yaml_loader.load_yaml(path)) == locs(fresh)


def test_errors_are_not_cached(cache_dir, tmp_path):
    path = tmp_path / "a.yaml"
    path.write_text("a: 1\na: 2\n")
    for _ in range(2):
        with pytest.raises(RuleFileError, match="duplicate key 'a'"):
            yaml_loader.load_yaml(path)
    assert not list(cache_dir.glob("*.pickle"))


def test_cache_can_be_turned_off_and_refuses_shared_directories(cache_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("SDY_DSL_NO_CACHE", "1")
    assert yaml_loader._DocumentCache.get() is None
    monkeypatch.delenv("SDY_DSL_NO_CACHE")
    monkeypatch.setattr(yaml_loader._DocumentCache, "_instance", False)
    cache_dir.mkdir(parents=True)
    cache_dir.chmod(0o777)
    assert yaml_loader._DocumentCache.get() is None


class _PlantedCommand:
    """A pickle that would run a command when loaded."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def test_planted_pickle_is_a_miss_and_never_runs(cache_dir, tmp_path):
    path = tmp_path / "a.yaml"
    path.write_text(RULE_TEXT)
    fresh = yaml_loader.load_yaml(path)
    [entry] = cache_dir.glob("*.pickle")
    marker = tmp_path / "ran"
    entry.write_bytes(pickle.dumps((entry.stem, _PlantedCommand(marker))))
    assert locs(yaml_loader.load_yaml(path)) == locs(fresh)
    assert not marker.exists()


def test_pruning_keeps_the_most_recently_used_entries(cache_dir, tmp_path, monkeypatch):
    path = tmp_path / "a.yaml"
    path.write_text(RULE_TEXT)
    yaml_loader.load_yaml(path)
    [entry] = cache_dir.glob("*.pickle")
    monkeypatch.setattr(yaml_loader._DocumentCache, "MAX_ENTRIES", 10)
    for i in range(12):  # temporaries a killed process left behind, all older than the entry
        leftover = cache_dir / f".left{i}.tmp"
        leftover.write_bytes(b"")
        os.utime(leftover, (i + 1, i + 1))
    yaml_loader.load_yaml(path)  # a hit: the entry is now the most recently used
    other = tmp_path / "b.yaml"
    other.write_text("a: 1\n")
    yaml_loader.load_yaml(other)  # a store: prunes
    left = {p.name for p in cache_dir.iterdir()}
    assert entry.name in left and len(left) <= 10
