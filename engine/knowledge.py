"""What the engine knows as data: packs of words, cue phrases and patterns, and the named
rules that read them.

**Packs** live in the ``packs`` data package, one directory per pack (``core`` for English,
``biography``, ``sport``, ``legal``): a ``pack.yaml`` (``purpose``, ``requires``) and entry
files. An entry file maps entry names to entries; an entry is named ``<file>.<entry>``::

    # packs/core/truth.yaml
    language_nouns:
      purpose: words after a language name that keep it the language ("Bosnian pronunciation")
      words: [language, languages, pronunciation]
    field_before:
      purpose: words right before a span that make it a field of study ("studied sculpture")
      pattern: '\\b(?:studied|majored in)\\s+$'
      flags: [IGNORECASE]
    month_numbers:
      purpose: a month's number by its name
      table: {january: 1, february: 2}

Words of one entry defined by several packs are united, in pack order (a domain pack adds
words to a core list); a word list may ``include`` others (``include: [truth.name_prepositions]``). A pattern or a table is defined by one pack. A pattern may insert
another entry with ``{=name}``: a word list as an alternation of its words, escaped, in
their order; another pattern as a group. An entry of a pack that is switched off reads as
empty (no words, a pattern that matches nothing, an empty table); a name no pack defines
is an error.

**Rules** are named functions registered with :func:`rule`: each has a stage, the entity
types it applies to, a one-line purpose and the pack whose words it reads. Its example
table lives in its pack (``examples/<stage>.yaml`` or ``examples/<stage>.<topic>.yaml``) and
the test suite runs it (``tests/engine/test_rule_examples.py`` says what an example holds). A rule
switched off (``[taxogen.rules] disable``, ``--disable-rule``, or its pack not chosen)
returns its ``off`` value: what the code does when the rule does not fire.

The engine reads words and rules through the **active** :class:`Knowledge`:
:meth:`Knowledge.active` makes one current for a block (the engine's calls run inside
their engine's), and the module-level readers :func:`words`, :func:`pattern`,
:func:`table` return views that resolve against whichever is current when used. Outside any
block the default packs (:data:`DEFAULT_PACKS`) with every rule on are current.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from enum import Enum
from importlib import resources
from pathlib import Path
from typing import Any

from engine.errors import ConfigError, UnknownComponentError



class Stage(str, Enum):
    """The stages of the pipeline (:mod:`engine.pipeline`), in the order they run."""

    DETECT = "detect"
    LINK = "link"
    LADDER = "ladder"
    VERIFY = "verify"
    RANK = "rank"
    SELECT = "select"
    GUARD = "guard"
    RENDER = "render"


#: The stages a rule may belong to, in the order the pipeline runs them.
STAGES: tuple[str, ...] = tuple(s.value for s in Stage)


class EntryKind(str, Enum):
    """What an entry holds, and the key that holds it."""

    WORDS = "words"
    PATTERN = "pattern"
    TABLE = "table"


#: Entry kinds and the key that holds each kind's value.
_KINDS = tuple(k.value for k in EntryKind)
#: The pattern flags an entry may name (``flags: [IGNORECASE]``): those of :class:`re.RegexFlag`.
_FLAGS = {f.name: f for f in re.RegexFlag if f.name}
_REFERENCE = re.compile(r"\{=([\w.]+)\}")
_NEVER = "(?!)"


class KnowledgeError(ConfigError):
    """A pack, an entry or a rule that does not exist, or a pack file that is not well formed."""


def packs_root() -> Path:
    """The shipped packs (the ``packs`` data package)."""
    return Path(str(resources.files("packs")))




@dataclass(frozen=True, slots=True)
class Entry:
    """One named entry of one pack: a word list, a pattern or a table."""

    name: str
    pack: str
    kind: str
    value: Any
    purpose: str = ""
    flags: int = 0
    #: word entries whose words this one holds too (``include: [truth.name_prepositions]``)
    includes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Pack:
    """One pack: its entries by name and the rule examples it holds."""

    name: str
    purpose: str
    requires: tuple[str, ...]
    entries: Mapping[str, Entry]
    examples: Mapping[str, tuple[Mapping[str, Any], ...]]
    path: Path

    @classmethod
    def load(cls, path: Path) -> "Pack":
        """The pack in directory ``path``; raises :class:`KnowledgeError` naming the file and entry at fault."""
        import yaml

        meta_file = path / "pack.yaml"
        if not meta_file.is_file():
            raise KnowledgeError(f"pack {path.name!r}: no pack.yaml in {path}", key=path.name)
        meta = _read_yaml(yaml, meta_file) or {}
        entries: dict[str, Entry] = {}
        for file in sorted(path.glob("*.yaml")):
            if file.name == "pack.yaml":
                continue
            for key, body in (_read_yaml(yaml, file) or {}).items():
                name = f"{file.stem}.{key}"
                entries[name] = _entry(name, path.name, body, file)
        examples: dict[str, list[Mapping[str, Any]]] = {}
        for file in sorted((path / "examples").glob("*.yaml")):
            stage = file.name.split(".")[0]  # examples/<stage>.yaml or examples/<stage>.<topic>.yaml
            for rule_name, rows in (_read_yaml(yaml, file) or {}).items():
                if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
                    raise KnowledgeError(f"{file}: the examples of rule {rule_name!r} must be a list of mappings", key=rule_name)
                examples.setdefault(rule_name, []).extend(dict(r, stage=stage) for r in rows)
        return cls(path.name, str(meta.get("purpose", "")), tuple(meta.get("requires", ())), entries,
                   {k: tuple(v) for k, v in examples.items()}, path)


@functools.lru_cache(maxsize=1)
def _loader() -> type:
    """A safe YAML loader whose only booleans are ``true`` and ``false``: the words "on", "no",
    "yes" and "off" stay words."""
    import yaml

    class PackLoader(yaml.SafeLoader):
        pass

    PackLoader.yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    PackLoader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
    return PackLoader


def _read_yaml(yaml: Any, file: Path) -> Any:
    try:
        return yaml.load(file.read_text(encoding="utf-8"), Loader=_loader())
    except yaml.YAMLError as exc:
        raise KnowledgeError(f"{file}: not well-formed YAML ({exc})", key=file.name) from None


def _entry(name: str, pack: str, body: Any, file: Path) -> Entry:
    if not isinstance(body, dict):
        raise KnowledgeError(f"{file}: entry {name!r} must be a mapping with one of {', '.join(_KINDS)}", key=name)
    kinds = [k for k in _KINDS if k in body]
    if len(kinds) != 1:
        raise KnowledgeError(f"{file}: entry {name!r} needs exactly one of {', '.join(_KINDS)}", key=name)
    kind = kinds[0]
    value = body[kind]
    flags = 0
    for flag in body.get("flags", ()):
        if flag not in _FLAGS:
            raise KnowledgeError(f"{file}: entry {name!r} has an unknown flag {flag!r}", key=name)
        flags |= _FLAGS[flag]
    if kind == "words":
        if not isinstance(value, list) or not all(isinstance(w, str) for w in value):
            raise KnowledgeError(f"{file}: the words of {name!r} must be a list of strings", key=name)
        value = tuple(value)
    elif kind == "pattern" and not isinstance(value, str):
        raise KnowledgeError(f"{file}: the pattern of {name!r} must be a string", key=name)
    elif kind == "table" and not isinstance(value, dict):
        raise KnowledgeError(f"{file}: the table of {name!r} must be a mapping", key=name)
    includes = body.get("include", ())
    if includes and (kind != "words" or not isinstance(includes, list)):
        raise KnowledgeError(f"{file}: entry {name!r}: only a word list may include others (a list of names)", key=name)
    return Entry(name, pack, kind, value, str(body.get("purpose", "")), flags, tuple(includes))


@functools.lru_cache(maxsize=8)
def _all_packs(root: str) -> dict[str, Pack]:
    base = Path(root)
    return {p.name: Pack.load(p) for p in sorted(base.iterdir()) if p.is_dir() and (p / "pack.yaml").is_file()}


def shipped_default_packs(root: str | Path | None = None) -> tuple[str, ...]:
    """The packs whose ``pack.yaml`` gives them a place among the defaults (``default: N``), in
    that order: what an engine reads when its config names no packs."""
    import yaml

    base = Path(root) if root is not None else packs_root()
    placed = []
    for meta in sorted(base.glob("*/pack.yaml")):
        position = (_read_yaml(yaml, meta) or {}).get("default")
        if position is not None:
            placed.append((int(position), meta.parent.name))
    return tuple(name for _, name in sorted(placed))


#: The packs an engine reads when its config names none (``default: N`` in their ``pack.yaml``).
DEFAULT_PACKS: tuple[str, ...] = shipped_default_packs()


@dataclass(frozen=True, slots=True)
class Rule:
    """A registered rule: a named function of one stage, with its purpose and its pack."""

    name: str
    stage: str
    types: tuple[str, ...]
    purpose: str
    pack: str
    off: Any = None
    #: the module that defines it
    module: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "stage": self.stage, "types": list(self.types), "purpose": self.purpose, "pack": self.pack}


#: Every registered rule by name (filled as the modules that define rules are imported; see :func:`registered_rules`).
_RULES: dict[str, Rule] = {}
#: The runtime packages whose modules define rules: :func:`registered_rules` imports them all.
RULE_PACKAGES: tuple[str, ...] = ("engine.detect", "engine.generate", "engine.select", "engine.privacy", "engine.render",
                                  "engine.text")


def rule(name: str, *, stage: str, purpose: str, types: Sequence[str] = (), pack: str = "core", off: Any = None) -> Callable:
    """Register the decorated function as the rule ``name``.

    ``types``: the entity types it applies to (empty: all). When the active knowledge
    switches the rule off (by name, or its pack is not chosen) a call returns ``off``
    without running it.
    """
    if stage not in STAGES:
        raise ValueError(f"rule {name!r}: unknown stage {stage!r}; stages: {', '.join(STAGES)}")
    if name in _RULES:
        raise ValueError(f"rule {name!r} is registered twice")
    if not name:
        raise ValueError("a rule needs a name")

    def decorate(fn: Callable) -> Callable:
        info = Rule(name, stage, tuple(getattr(t, "value", t) for t in types), purpose, pack, off, fn.__module__)
        _RULES[name] = info

        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            if not current().enabled(name):
                return off
            return fn(*args, **kwargs)

        run.rule = info  # type: ignore[attr-defined]
        return run

    return decorate


def registered_rules(*, shipped: bool = True) -> dict[str, Rule]:
    """Every rule, by name (the modules that define rules are imported first); ``shipped``:
    only the rules of the runtime packages (not those an application or a test registers)."""
    import importlib
    import pkgutil

    for package in RULE_PACKAGES:
        pkg = importlib.import_module(package)
        for info in pkgutil.walk_packages(pkg.__path__, prefix=f"{package}."):
            importlib.import_module(info.name)
    return {n: r for n, r in sorted(_RULES.items()) if not shipped or r.module.split(".")[0] in ("engine", "kg")}


class Knowledge:
    """The packs an engine reads and the rules it runs.

    ``packs``: pack names, in order (a pack's ``requires`` are added before it);
    ``disabled``: rule names switched off. Raises :class:`KnowledgeError` for an unknown
    pack; unknown rule names are checked by :meth:`check_rules` (rules register on import).
    """

    def __init__(self, packs: Iterable[str] = DEFAULT_PACKS, disabled: Iterable[str] = (), *, root: str | Path | None = None) -> None:
        self.root = Path(root) if root is not None else packs_root()
        available = _all_packs(str(self.root))
        order: list[str] = []

        def add(name: str, chain: tuple[str, ...] = ()) -> None:
            if name in order:
                return
            if name not in available:
                raise KnowledgeError(f"unknown pack {name!r}; known: {', '.join(sorted(available))}", key="packs")
            if name in chain:
                raise KnowledgeError(f"pack {name!r} requires itself through {' → '.join(chain)}", key="packs")
            for req in available[name].requires:
                add(req, chain + (name,))
            order.append(name)

        for name in packs:
            add(name)
        self.available = available
        self.packs: tuple[str, ...] = tuple(order)
        self.disabled: frozenset[str] = frozenset(disabled)
        self._cache: dict[tuple[str, str, int], Any] = {}

    @classmethod
    @functools.lru_cache(maxsize=1)
    def default(cls) -> "Knowledge":
        """The default packs, every rule on (what is current outside any :meth:`active` block)."""
        return cls()

    # --- entries -----------------------------------------------------------------------------
    def _defined(self, name: str) -> list[Entry]:
        found = [p.entries[name] for p in self.available.values() if name in p.entries]
        if not found:
            raise KnowledgeError(f"no pack defines {name!r}", key=name)
        return found

    def _chosen(self, name: str, kind: str) -> list[Entry]:
        defined = self._defined(name)
        wrong = [e for e in defined if e.kind != kind]
        if wrong:
            raise KnowledgeError(f"{name!r} is a {wrong[0].kind} entry (pack {wrong[0].pack}), not {kind}", key=name)
        by_pack = {e.pack: e for e in defined}
        return [by_pack[p] for p in self.packs if p in by_pack]

    def word_list(self, name: str) -> tuple[str, ...]:
        """The words of entry ``name`` in the chosen packs, in pack order, without repeats."""
        key = ("word_list", name, 0)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = self._word_list(name, ())
        return hit

    def _word_list(self, name: str, chain: tuple[str, ...]) -> tuple[str, ...]:
        if name in chain:
            raise KnowledgeError(f"word list {name!r} includes itself through {' → '.join(chain)}", key=name)
        out: list[str] = []
        for e in self._chosen(name, "words"):
            for inc in e.includes:
                out += self._word_list(inc, chain + (name,))
            out += e.value
        return tuple(dict.fromkeys(out))

    def words(self, name: str) -> frozenset[str]:
        """The words of entry ``name`` as a set."""
        key = ("words", name, 0)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = frozenset(self.word_list(name))
        return hit

    def pattern_text(self, name: str) -> str:
        """The regular expression of entry ``name``, with its ``{=…}`` references inserted
        (a pattern no chosen pack defines: one that never matches)."""
        key = ("pattern_text", name, 0)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = self._expand(name, ())
        return hit

    def _expand(self, name: str, chain: tuple[str, ...]) -> str:
        if name in chain:
            raise KnowledgeError(f"pattern {name!r} refers to itself through {' → '.join(chain)}", key=name)
        kind = self._defined(name)[0].kind
        if kind == "words":
            words = self.word_list(name)
            return "(?:" + "|".join(re.escape(w) for w in words) + ")" if words else _NEVER
        chosen = self._chosen(name, "pattern")
        if not chosen:
            return _NEVER
        if len(chosen) > 1:
            raise KnowledgeError(f"pattern {name!r} is defined by packs {', '.join(e.pack for e in chosen)}; one may", key=name)
        return _REFERENCE.sub(lambda m: self._expand_ref(m.group(1), chain + (name,)), chosen[0].value)

    def _expand_ref(self, ref: str, chain: tuple[str, ...]) -> str:
        text = self._expand(ref, chain)
        if text == _NEVER or self._defined(ref)[0].kind == "words":
            return text  # already one group (an alternation of the words), or nothing
        return f"(?:{text})"  # a pattern "(?:a)|b" is one group only once wrapped

    def pattern(self, name: str, flags: int = 0) -> re.Pattern[str]:
        """Entry ``name`` compiled, with its own flags and ``flags``."""
        key = ("pattern", name, flags)
        hit = self._cache.get(key)
        if hit is None:
            chosen = [e for e in self._defined(name) if e.pack in self.packs]
            own = chosen[0].flags if chosen else 0
            try:
                hit = self._cache[key] = re.compile(self.pattern_text(name), own | flags)
            except re.error as exc:
                raise KnowledgeError(f"pattern {name!r} does not compile: {exc}", key=name) from None
        return hit

    def table(self, name: str) -> Mapping[str, Any]:
        """The table of entry ``name`` (empty when no chosen pack defines it)."""
        key = ("table", name, 0)
        hit = self._cache.get(key)
        if hit is None:
            chosen = self._chosen(name, "table")
            if len(chosen) > 1:
                raise KnowledgeError(f"table {name!r} is defined by packs {', '.join(e.pack for e in chosen)}; one may", key=name)
            hit = self._cache[key] = dict(chosen[0].value) if chosen else {}
        return hit

    def entries(self) -> list[Entry]:
        """Every entry of every pack, chosen or not, by pack then name."""
        return [e for p in self.available.values() for e in p.entries.values()]

    def examples(self) -> dict[str, list[Mapping[str, Any]]]:
        """Every rule's examples, from every pack (chosen or not)."""
        out: dict[str, list[Mapping[str, Any]]] = {}
        for p in self.available.values():
            for name, rows in p.examples.items():
                out.setdefault(name, []).extend(dict(r, pack=p.name) for r in rows)
        return out

    # --- rules ------------------------------------------------------------------------------
    def enabled(self, rule_name: str) -> bool:
        """The rule runs: not switched off, and its pack chosen."""
        if rule_name in self.disabled:
            return False
        info = _RULES.get(rule_name)
        return info is None or info.pack in self.packs

    def check_rules(self) -> None:
        """Raise :class:`UnknownComponentError` when a disabled name is no registered rule."""
        known = registered_rules()
        unknown = sorted(self.disabled - set(known))
        if unknown:
            raise UnknownComponentError(f"unknown rule {unknown[0]!r}; 'taxogen rules list' names them", name=unknown[0],
                                        known=tuple(known))

    @property
    def key(self) -> tuple[tuple[str, ...], frozenset[str]]:
        """What tells two knowledges apart (packs and rules off): caches of results that depend
        on words or rules are keyed by it."""
        return (self.packs, self.disabled)

    def with_rules_off(self, names: Iterable[str]) -> "Knowledge":
        """The same packs with ``names`` switched off too."""
        return Knowledge(self.packs, self.disabled | set(names), root=self.root)

    def with_rules_on(self, names: Iterable[str]) -> "Knowledge":
        """The same packs with ``names`` switched on again (a rule of a pack not chosen stays off)."""
        return Knowledge(self.packs, self.disabled - set(names), root=self.root)

    @contextmanager
    def active(self) -> Iterator["Knowledge"]:
        """Make this knowledge current for the block (nested blocks restore the outer one)."""
        token = _CURRENT.set(self)
        try:
            yield self
        finally:
            _CURRENT.reset(token)

    def __repr__(self) -> str:
        off = f", disabled={sorted(self.disabled)}" if self.disabled else ""
        return f"Knowledge(packs={list(self.packs)}{off})"


_CURRENT: ContextVar[Knowledge | None] = ContextVar("taxogen_knowledge", default=None)


def current() -> Knowledge:
    """The knowledge current in this context (the default outside any :meth:`Knowledge.active` block)."""
    k = _CURRENT.get()
    return k if k is not None else Knowledge.default()


# --- views that resolve against the current knowledge when used --------------------------------
@dataclass(frozen=True, slots=True)
class Words:
    """The words of an entry, as a set, read from the current knowledge at each use."""

    name: str

    def get(self) -> frozenset[str]:
        return current().words(self.name)

    def __contains__(self, word: object) -> bool:
        return word in current().words(self.name)

    def __iter__(self) -> Iterator[str]:
        return iter(current().word_list(self.name))

    def __len__(self) -> int:
        return len(current().words(self.name))

    def __bool__(self) -> bool:
        return bool(current().words(self.name))

    def __or__(self, other: Iterable[str]) -> frozenset[str]:
        return current().words(self.name) | _as_set(other)

    __ror__ = __or__

    def __and__(self, other: Iterable[str]) -> frozenset[str]:
        return current().words(self.name) & _as_set(other)

    __rand__ = __and__

    def __sub__(self, other: Iterable[str]) -> frozenset[str]:
        return current().words(self.name) - _as_set(other)

    def __rsub__(self, other: Iterable[str]) -> frozenset[str]:
        return _as_set(other) - current().words(self.name)

    def isdisjoint(self, other: Iterable[str]) -> bool:
        return current().words(self.name).isdisjoint(_as_set(other))

    def in_order(self) -> tuple[str, ...]:
        """The words in pack order."""
        return current().word_list(self.name)


def _as_set(other: Iterable[str]) -> frozenset[str]:
    return other.get() if isinstance(other, Words) else frozenset(other)


@dataclass(frozen=True, slots=True)
class Pattern:
    """An entry's compiled pattern, read from the current knowledge at each use (the
    methods of :class:`re.Pattern`)."""

    name: str
    flags: int = 0

    def get(self) -> re.Pattern[str]:
        return current().pattern(self.name, self.flags)

    @property
    def pattern(self) -> str:
        return self.get().pattern

    def search(self, string: str, *args: int) -> re.Match[str] | None:
        return self.get().search(string, *args)

    def match(self, string: str, *args: int) -> re.Match[str] | None:
        return self.get().match(string, *args)

    def fullmatch(self, string: str, *args: int) -> re.Match[str] | None:
        return self.get().fullmatch(string, *args)

    def finditer(self, string: str, *args: int) -> Iterator[re.Match[str]]:
        return self.get().finditer(string, *args)

    def findall(self, string: str, *args: int) -> list[Any]:
        return self.get().findall(string, *args)

    def sub(self, repl: Any, string: str, count: int = 0) -> str:
        return self.get().sub(repl, string, count)

    def subn(self, repl: Any, string: str, count: int = 0) -> tuple[str, int]:
        return self.get().subn(repl, string, count)

    def split(self, string: str, maxsplit: int = 0) -> list[str]:
        return self.get().split(string, maxsplit)


@dataclass(frozen=True, slots=True)
class Table(Mapping[str, Any]):
    """An entry's table, read from the current knowledge at each use."""

    name: str

    def get_table(self) -> Mapping[str, Any]:
        return current().table(self.name)

    def __getitem__(self, key: str) -> Any:
        return current().table(self.name)[key]

    def __iter__(self) -> Iterator[str]:
        return iter(current().table(self.name))

    def __len__(self) -> int:
        return len(current().table(self.name))


def words(name: str) -> Words:
    """The words of entry ``name`` (see :class:`Words`)."""
    return Words(name)


def pattern(name: str, flags: int = 0) -> Pattern:
    """The compiled pattern of entry ``name`` (see :class:`Pattern`)."""
    return Pattern(name, flags)


def table(name: str) -> Table:
    """The table of entry ``name`` (see :class:`Table`)."""
    return Table(name)


__all__ = ["DEFAULT_PACKS", "shipped_default_packs", "STAGES", "Stage", "EntryKind", "Knowledge", "KnowledgeError", "Pack", "Entry", "Rule", "rule", "registered_rules",
           "current", "words", "pattern", "table", "Words", "Pattern", "Table", "packs_root"]
