"""Write kg/data/wordnet/nouns.json.gz: WordNet 3.0's common nouns, their senses and hypernyms.

The engine reads it (:mod:`engine.generate.noun_hierarchy`) to generalize a common noun the
graph does not know ("pharmacist" → "health professional", "reindeer" → "deer"). Only what
that needs is kept:

- ``lemmas``: every lower-case noun lemma (multi-word ones with spaces) → its senses in
  WordNet's order (most frequent first), ``"synset,tagged count;…"``; senses that are
  instances (a named thing: "Paris" is an instance of a city) are left out;
- ``synsets``: every noun synset a kept sense reaches by hypernyms → ``"label<TAB>lexicographer
  file<TAB>hypernym"`` (the first lemma's words, "noun.person", the first hypernym or nothing).

Input: the dictionary directory of Princeton WordNet 3.0: ``data.noun``, ``index.noun`` and
``cntlist.rev`` (the tagged counts), in WordNet's own file formats (wndb(5WN), cntlist(5WN)).
Debian's ``wordnet-base`` installs it in ``/usr/share/wordnet``:

    apt-get install wordnet-base && python tools/make_wordnet_nouns.py /usr/share/wordnet

The output is deterministic (sorted keys, gzip without name and with mtime 0).
"""

from __future__ import annotations

import gzip
import io
import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "kg" / "data" / "wordnet" / "nouns.json.gz"


#: WordNet's lexicographer files of nouns, by number (its ``lexnames`` file, lines 3 to 28).
NOUN_FILES = {3: "noun.Tops", 4: "noun.act", 5: "noun.animal", 6: "noun.artifact", 7: "noun.attribute",
              8: "noun.body", 9: "noun.cognition", 10: "noun.communication", 11: "noun.event",
              12: "noun.feeling", 13: "noun.food", 14: "noun.group", 15: "noun.location", 16: "noun.motive",
              17: "noun.object", 18: "noun.person", 19: "noun.phenomenon", 20: "noun.plant",
              21: "noun.possession", 22: "noun.process", 23: "noun.quantity", 24: "noun.relation",
              25: "noun.shape", 26: "noun.state", 27: "noun.substance", 28: "noun.time"}


def read_synsets(path: Path) -> dict[str, tuple[str, str, str | None, bool]]:
    """``data.noun``: offset → (first lemma's words, lexicographer file, first hypernym, is an instance)."""
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith(" "):
            continue  # the licence at the head of the file
        fields = line.split(" | ")[0].split()
        offset, lex_file, n_words = fields[0], int(fields[1]), int(fields[3], 16)
        label = fields[4].replace("_", " ")
        at = 4 + 2 * n_words
        n_ptrs = int(fields[at])
        hyper, instance = None, False
        for i in range(n_ptrs):
            symbol, target = fields[at + 1 + 4 * i], fields[at + 2 + 4 * i]
            if symbol == "@" and hyper is None:
                hyper = target
            elif symbol == "@i":
                instance = True
                hyper = hyper or target
        out[offset] = (label, NOUN_FILES[lex_file], hyper, instance)
    return out


def read_counts(path: Path) -> dict[tuple[str, int], int]:
    """``cntlist.rev``: (lemma, sense number) → how often the sense was tagged in WordNet's corpora."""
    out: dict[tuple[str, int], int] = {}
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        key, number, count = line.split()
        lemma, rest = key.split("%", 1)
        if rest.startswith("1:"):  # nouns
            out[(lemma, int(number))] = int(count)
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python tools/make_wordnet_nouns.py DICT_DIR", file=sys.stderr)
        return 2
    root = Path(argv[0])
    missing = [f for f in ("data.noun", "index.noun") if not (root / f).exists()]
    if missing:
        print(f"{root}: no WordNet dictionary here ({', '.join(missing)} missing)", file=sys.stderr)
        return 2
    synsets_all = read_synsets(root / "data.noun")
    counts = read_counts(root / "cntlist.rev")
    lemmas: dict[str, list[list]] = {}
    synsets: dict[str, list] = {}

    def keep(offset: str) -> str:
        while offset is not None and offset not in synsets:
            label, lex, hyper, _ = synsets_all[offset]
            synsets[offset] = [label, lex, hyper]
            offset = hyper
        return offset

    for line in (root / "index.noun").read_text(encoding="utf-8").splitlines():
        if line.startswith(" "):
            continue
        fields = line.split()
        lemma, n_senses, n_ptrs = fields[0], int(fields[2]), int(fields[3])
        offsets = fields[4 + n_ptrs + 2:]
        assert len(offsets) == n_senses, line
        if lemma != lemma.lower() or not any(ch.isalpha() for ch in lemma):
            continue
        senses = []
        for number, offset in enumerate(offsets, start=1):
            if synsets_all[offset][3]:
                continue  # an instance: a named thing
            keep(offset)
            senses.append([offset, counts.get((lemma, number), 0)])
        if senses:
            lemmas[lemma.replace("_", " ")] = senses
    # flat strings, parsed on lookup: the table loads in a fifth of a second
    data = {"source": "Princeton WordNet 3.0 (WordNet 3.0 Copyright 2006 by Princeton University; the WordNet licence)",
            "lemmas": {lemma: ";".join(f"{offset},{count}" for offset, count in senses) for lemma, senses in lemmas.items()},
            "synsets": {offset: "\t".join([label, lex, hyper or ""]) for offset, (label, lex, hyper) in synsets.items()}}
    raw = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as gz:
        gz.write(raw)
    OUT.write_bytes(buf.getvalue())
    print(f"{OUT}: {len(lemmas):,} noun lemmas, {len(synsets):,} synsets, {len(buf.getvalue()):,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
