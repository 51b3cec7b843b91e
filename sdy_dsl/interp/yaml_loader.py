"""YAML loading that keeps node positions, so every error can point at its source.

Mappings load as `LocDict`, sequences as `LocList` and strings as `LocStr`;
each knows the (line, col) where it started, and a `LocDict` also knows where
each of its keys and values started.

PyYAML's pure-Python parser costs ~3 ms per KB of YAML, most of sdy-dsl's
start-up once the rule files are parsed fast; so a loaded document is also
kept, pickled, in the user's cache directory (see `_DocumentCache`), and a
later load of the same text skips the parser (and importing yaml).
"""
from __future__ import annotations

import functools
import os
import pickle
import sys
import tempfile
from pathlib import Path

try:  # CPython's own SHA-256: importing hashlib loads OpenSSL first (~3 ms of every start-up)
    from _sha256 import sha256
except ImportError:  # (a Python without it)
    from hashlib import sha256

from ..errors import RuleFileError


class Loc:
    """A 1-based source position in a file."""

    __slots__ = ("path", "line", "col")

    def __init__(self, path: str, line: int, col: int):
        self.path, self.line, self.col = path, line, col

    @staticmethod
    def of_mark(path, mark) -> "Loc":
        return Loc(path, mark.line + 1, mark.column + 1)

    def error(self, message: str, notes=()) -> RuleFileError:
        return RuleFileError(self.path, self.line, self.col, message, notes)

    def shifted(self, offset_in_text: str, offset: int) -> "Loc":
        """The position `offset` characters into a plain scalar that starts here."""
        before = offset_in_text[:offset]
        newlines = before.count("\n")
        if newlines == 0:
            return Loc(self.path, self.line, self.col + offset)
        return Loc(self.path, self.line + newlines, offset - before.rfind("\n"))

    def __str__(self):
        return f"{self.path}:{self.line}:{self.col}"


class LocStr(str):
    loc: Loc


class LocDict(dict):
    loc: Loc
    key_locs: dict
    value_locs: dict

    def loc_of(self, key) -> Loc:
        return self.value_locs.get(key, self.loc)

    def key_loc(self, key) -> Loc:
        return self.key_locs.get(key, self.loc)


class LocList(list):
    loc: Loc
    item_locs: list


def load_yaml(path: Path | str, text: str | None = None):
    """Load one YAML document, keeping positions. Raises RuleFileError on bad YAML."""
    path_str = str(path)
    if text is None:
        try:
            data = Path(path).read_bytes()
        except OSError as e:
            raise RuleFileError(path_str, None, None, f"cannot read file: {e.strerror}") from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            line = data.count(b"\n", 0, e.start) + 1
            col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
            raise RuleFileError(path_str, line, col, f"file is not UTF-8 text (byte 0x{data[e.start]:02x})") from None
    cache = _DocumentCache.get()
    if cache is None:
        return _parse_yaml(path_str, text)
    key = cache.key(text)
    doc = cache.load(key, path_str)
    if doc is _MISS:
        doc = _parse_yaml(path_str, text)  # errors propagate and are not cached
        cache.store(key, doc, path_str)
    return doc


def _parse_yaml(path_str: str, text: str):
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    def construct_str(loader, node):
        s = LocStr(loader.construct_scalar(node))
        s.loc = Loc.of_mark(path_str, node.start_mark)
        # Plain (unquoted) scalars start at the mark; quoted ones one char later.
        if node.style in ("'", '"'):
            s.loc = Loc(path_str, s.loc.line, s.loc.col + 1)
        elif node.style in ("|", ">"):
            s.loc = Loc(path_str, s.loc.line + 1, s.loc.col)
        return s

    def loc_at(value, mark) -> Loc:
        """MARK's position: the value's own Loc when the value starts there (Locs are
        never changed: one object, not two equal ones to pickle and unpickle)."""
        own = getattr(value, "loc", None)
        if isinstance(own, Loc) and own.line == mark.line + 1 and own.col == mark.column + 1:
            return own
        return Loc.of_mark(path_str, mark)

    def construct_map(loader, node):
        d = LocDict()
        d.loc = Loc.of_mark(path_str, node.start_mark)
        d.key_locs, d.value_locs = {}, {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            try:
                hash(key)
            except TypeError:
                raise Loc.of_mark(path_str, key_node.start_mark).error("mapping keys must be scalars") from None
            if key in d:
                raise Loc.of_mark(path_str, key_node.start_mark).error(f"duplicate key '{key}'")
            d[key] = loader.construct_object(value_node, deep=True)
            d.key_locs[key] = loc_at(key, key_node.start_mark)
            d.value_locs[key] = loc_at(d[key], value_node.start_mark)
        return d

    def construct_seq(loader, node):
        items = LocList(loader.construct_object(n, deep=True) for n in node.value)
        items.loc = Loc.of_mark(path_str, node.start_mark)
        items.item_locs = [loc_at(item, n.start_mark) for item, n in zip(items, node.value)]
        return items

    Loader.add_constructor("tag:yaml.org,2002:str", construct_str)
    Loader.add_constructor("tag:yaml.org,2002:map", construct_map)
    Loader.add_constructor("tag:yaml.org,2002:seq", construct_seq)
    try:
        return yaml.load(text, Loader=Loader)  # noqa: S506 - SafeLoader subclass
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (None, None)
        msg = " ".join(str(x) for x in (e.context, e.problem) if x)
        raise RuleFileError(path_str, line, col, f"invalid YAML: {msg}") from None
    except yaml.reader.ReaderError as e:
        line = text.count("\n", 0, e.position) + 1
        col = e.position - (text.rfind("\n", 0, e.position) + 1) + 1
        ch = e.character if isinstance(e.character, int) else ord(e.character)
        raise RuleFileError(path_str, line, col, f"invalid YAML: {e.reason} (character #x{ch:04x})") from None
    except yaml.YAMLError as e:
        raise RuleFileError(path_str, None, None, f"invalid YAML: {e}") from None
    except RecursionError:
        raise RuleFileError(path_str, 1, 1, "YAML nested too deeply") from None


def loc_of(node, default: Loc) -> Loc:
    return getattr(node, "loc", None) or default


# --------------------------------------------------------------------------- cache

_MISS = object()


class _DocumentCache:
    """Loaded documents, pickled in $XDG_CACHE_HOME/sdy-dsl (default ~/.cache/sdy-dsl).

    An entry is keyed by a hash of the YAML text and of what shapes the loaded
    objects (this module's source, the PyYAML and Python versions); the file's
    path is not part of it: it is written into the positions when loading, so
    the same text under another path (a copied rule file) hits too. The cache
    is never needed for correctness: a missing, corrupt or unwritable entry
    means parsing the text; errors are never cached. SDY_DSL_NO_CACHE=1 turns
    it off. Pickles are only read from a directory owned by the user and
    writable by no one else, and may only name the classes a document holds.

    Concurrent processes: each writer pickles into a temporary file of its own
    and renames it into place, so a reader sees a whole entry or none.
    """

    FORMAT = 2
    # Files beyond this are pruned least recently used first, when storing. Most
    # entries are small (median ~0.5 KB); a test suite writes hundreds of its own,
    # which must not push the built-in rule files' entries out.
    MAX_ENTRIES = 5000
    _instance: "_DocumentCache | None | bool" = False  # False: not looked up yet

    def __init__(self, directory: Path):
        self.directory = directory
        self.salt = sha256(
            f"{self.FORMAT}\0{sys.version}\0{_pyyaml_version()}\0".encode() + Path(__file__).read_bytes()).digest()

    @classmethod
    def get(cls) -> "_DocumentCache | None":
        if cls._instance is False:
            cls._instance = cls._open()
        return cls._instance

    @classmethod
    def _open(cls) -> "_DocumentCache | None":
        if os.environ.get("SDY_DSL_NO_CACHE", "") not in ("", "0"):
            return None
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        if not os.path.isabs(base):  # as the XDG spec says: ignore a relative path
            return None
        directory = Path(base) / "sdy-dsl"
        try:
            directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            st = directory.stat()
            if hasattr(os, "getuid") and (st.st_uid != os.getuid() or st.st_mode & 0o022):
                return None  # someone else could plant a pickle there
            return cls(directory)
        except OSError:
            return None

    def key(self, text: str) -> str:
        return sha256(self.salt + text.encode("utf-8", "surrogatepass")).hexdigest()

    def load(self, key: str, path_str: str):
        entry = self.directory / f"{key}.pickle"
        try:
            with open(entry, "rb") as f:
                stored_key, doc = _PathUnpickler(f, path_str).load()
        except Exception:  # absent, truncated, corrupt, from an incompatible version...
            return _MISS
        if stored_key != key:
            return _MISS
        try:
            os.utime(entry)  # used now: pruned last
        except OSError:
            pass
        return doc

    def store(self, key: str, doc, path_str: str) -> None:
        self._write(key, lambda f: _PathPickler(f, path_str).dump((key, doc)))

    def _write(self, key: str, dump) -> None:
        try:
            fd, temporary = tempfile.mkstemp(dir=self.directory, prefix=f".{key}.", suffix=".tmp")
        except OSError:
            return
        try:
            with os.fdopen(fd, "wb") as f:
                dump(f)
            os.replace(temporary, self.directory / f"{key}.pickle")
        except Exception:
            _unlink_quietly(temporary)
            return
        self._prune()

    def _prune(self) -> None:
        """Beyond MAX_ENTRIES files (temporaries that a killed process left too), keep the
        most recently used half. Another process may be pruning at the same time."""
        try:
            entries = [e for e in os.scandir(self.directory) if e.is_file(follow_symlinks=False)]
        except OSError:
            return
        if len(entries) <= self.MAX_ENTRIES:
            return
        used: list[tuple[float, str]] = []
        for entry in entries:
            try:
                used.append((entry.stat(follow_symlinks=False).st_mtime, entry.path))
            except OSError:  # already pruned
                pass
        used.sort()
        for _, path in used[:len(used) - self.MAX_ENTRIES // 2]:
            _unlink_quietly(path)


def _unlink_quietly(path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _pyyaml_version() -> str:
    """PyYAML's `__init__.py`, which holds its version, read without importing yaml (~20 ms)."""
    from importlib.util import find_spec
    spec = find_spec("yaml")
    return sha256(Path(spec.origin).read_bytes()).hexdigest() if spec and spec.origin else ""


def _loc_in_document(line: int, col: int) -> Loc:
    """What a pickled document calls to make a Loc in its own file: its
    unpickler answers this name with Loc(the file's path, line, col)."""
    raise AssertionError("only a document's unpickler makes these")


class _PathPickler(pickle.Pickler):
    """Pickles the file's path (shared by every Loc of a document) as a reference,
    and each Loc in the file as a call (_loc_in_document, (line, col)): unpickled
    by one C-level call, ~2.5x faster than building the object with its slots'
    state and the path looked up each time (a document holds ~200 Locs a KB)."""

    def __init__(self, file, path_str: str):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.path_str = path_str

    def persistent_id(self, obj):
        return "path" if obj is self.path_str else None

    def reducer_override(self, obj):
        if type(obj) is Loc and obj.path is self.path_str:
            return _loc_in_document, (obj.line, obj.col)
        return NotImplemented


class _PathUnpickler(pickle.Unpickler):
    """Puts the file's path back, and builds only what `_parse_yaml` makes: a
    damaged or planted entry cannot name any other class (a miss, not code run)."""

    ALLOWED_CLASSES = frozenset({
        (__name__, "Loc"), (__name__, "LocStr"), (__name__, "LocDict"), (__name__, "LocList"),
        ("datetime", "date"), ("datetime", "datetime"), ("datetime", "timedelta"), ("datetime", "timezone"),
    })

    def __init__(self, file, path_str: str):
        super().__init__(file)
        self.path_str = path_str

    def persistent_load(self, pid):
        if pid != "path":
            raise pickle.UnpicklingError(f"unknown reference {pid!r}")
        return self.path_str

    def find_class(self, module: str, name: str):
        if (module, name) == (__name__, "_loc_in_document"):
            return functools.partial(Loc, self.path_str)
        if (module, name) not in self.ALLOWED_CLASSES:
            raise pickle.UnpicklingError(f"{module}.{name} is not part of a YAML document")
        return super().find_class(module, name)


class _SyntaxCache(_DocumentCache):
    """The parse trees of a rule file's patterns and expressions, by the file's
    content (sdy_dsl.interp.parsing.trees_cached_for); salted with the grammar's
    source and parsing.py's (its size limits), so a changed grammar or limit
    never reads old trees."""

    FORMAT = 1
    _instance: "_SyntaxCache | None | bool" = False

    def __init__(self, directory: Path):
        super().__init__(directory)
        here = Path(__file__).parent
        self.salt = sha256(b"syntax\0" + self.salt + (here / "syntax.py").read_bytes()
                                   + (here / "grammar.py").read_bytes()
                                   + (here / "parsing.py").read_bytes()).digest()

    def load(self, key: str, path_str: str):
        entry = self.directory / f"{key}.pickle"
        try:
            with open(entry, "rb") as f:
                stored_key, trees = _SyntaxUnpickler(f).load()
        except Exception:
            return _MISS
        return trees if stored_key == key else _MISS

    def store(self, key: str, trees, path_str: str) -> None:
        self._write(key, lambda f: pickle.dump((key, trees), f, protocol=pickle.HIGHEST_PROTOCOL))


class _SyntaxUnpickler(pickle.Unpickler):
    """Builds only the syntax module's tree nodes: a planted entry cannot name other classes."""

    def find_class(self, module: str, name: str):
        if module != "sdy_dsl.interp.syntax":
            raise pickle.UnpicklingError(f"{module}.{name} is not a syntax tree node")
        return super().find_class(module, name)


def syntax_cache() -> "_SyntaxCache | None":
    return _SyntaxCache.get()


class FileFacts:
    """One small fact per YAML file of a directory (the pass a rule file
    defines), computed from the loaded file and kept in the document cache by
    the file's stat (size, mtime, inode): a later run whose file is unchanged
    reads neither the file nor its document. `what` names the fact (one index
    per fact and directory); `save()` writes what changed."""

    def __init__(self, what: str, directory: Path):
        self._cache = _DocumentCache.get()
        self._facts: dict = {}  # file name relative to the directory -> (stat, fact)
        self._changed = False
        self._directory = directory
        if self._cache is not None:
            self._key = self._cache.key(f"file facts\0{what}\0{directory.absolute()}")
            found = self._cache.load(self._key, "")
            self._facts = found if isinstance(found, dict) else {}

    def get(self, path: Path, compute):
        """The fact of PATH: the stored one if the file is unchanged since, else `compute(path)`
        (which may raise: nothing is stored then)."""
        name = str(path.relative_to(self._directory))
        try:
            st = path.stat()
            stat = (st.st_size, st.st_mtime_ns, st.st_ino)
        except OSError:
            return compute(path)
        stored = self._facts.get(name)
        if stored is not None and stored[0] == stat:
            return stored[1]
        fact = compute(path)
        self._facts[name] = (stat, fact)
        self._changed = True
        return fact

    def save(self) -> None:
        if self._cache is not None and self._changed:
            self._cache.store(self._key, self._facts, "")
            self._changed = False
