"""The per-document helpers that replaced per-mention rescans give the same answers."""

import random

from engine.render.builder import OffsetMap, _scan_offset
from engine.types import Segment
from engine.text.sentences import SentenceIndex, sentence_bounds


def test_given_random_texts_then_sentence_index_equals_sentence_bounds():
    rng = random.Random(7)
    pieces = ["Oslo", "is", "a", "city.", "He", "said!", "  ", "\n", "(Born", "1980).", "\"Yes?\"", "“Quote”", "x.", "A", "b"]
    for _ in range(200):
        text = " ".join(rng.choice(pieces) for _ in range(rng.randint(1, 40)))
        index = SentenceIndex(text)
        for _ in range(20):
            start = rng.randrange(len(text))
            end = rng.randint(start + 1, len(text))
            assert index.bounds(start, end) == sentence_bounds(text, start, end), (text, start, end)


def test_given_sorted_disjoint_segments_then_offset_map_equals_the_scan():
    rng = random.Random(3)
    for _ in range(200):
        segs, pos, new = [], 0, 0
        for _ in range(rng.randint(0, 12)):
            gap, length, out = rng.randint(0, 5), rng.randint(1, 6), rng.randint(0, 9)
            pos += gap
            new += gap
            segs.append(Segment(new, new + out, pos, pos + length))
            pos += length
            new += out
        rng.shuffle(segs)
        m = OffsetMap(segs)
        assert m.monotonic
        for orig in range(pos + 3):
            assert m.new_offset(orig) == _scan_offset(sorted(segs, key=lambda g: g.orig_start), orig)


def test_given_a_long_document_then_windowed_rendering_equals_rendering_on_the_whole_output(sample_kg, monkeypatch):
    import json
    from pathlib import Path

    import engine.render.document as document
    from engine.render.builder import TextBuilder
    from engine.config import EngineConfig
    from engine.engine import Engine
    from engine.io.contract import parse_document

    demo = json.loads((Path(document.__file__).parents[1] / "data" / "demo_biography.json").read_text())
    _, text, ms = parse_document(demo)
    big, all_ms = "", []
    for i in range(40):  # the demo repeated, with and without a blank line between copies
        off = len(big)
        all_ms += [type(m)(m.start + off, m.end + off, m.entity_type, m.identifier_type) for m in ms]
        big += text + ("\n\n" if i % 2 else " ")
    eng = Engine.from_store(sample_kg, EngineConfig(model="none"))
    windowed = eng.sanitize(big, all_ms)
    monkeypatch.setattr(TextBuilder, "WINDOW", 10**9)
    whole = eng.sanitize(big, all_ms)
    assert windowed.text == whole.text and windowed.edits == whole.edits and windowed.segments == whole.segments
    assert windowed.replacements == whole.replacements
    assert len(windowed.text) > 20 * 400  # far longer than the window


def _numbers_by_scan(names):
    """PERSON numbers as the plain scan of every known name gives them (the definition)."""
    from engine.generate.sources.person import name_tokens, same_person

    known, ids, out = [], {}, []
    for text, eid in names:
        if eid is not None and eid in ids:
            out.append(ids[eid])
            continue
        tokens = name_tokens(text)
        number = next((n for kid, kt, n in reversed(known)
                       if not (eid is not None and kid is not None and kid != eid) and same_person(tokens, kt)
                       and all(same_person(tokens, ot) for _, ot, m in known if m == n and len(ot) > len(kt))), None)
        number = number if number is not None else 1 + max((n for *_, n in known), default=0)
        known.append((eid, tokens, number))
        if eid is not None:
            ids[eid] = number
        out.append(number)
    return out


def test_given_many_names_then_indexed_person_numbers_equal_the_scan():
    from engine.generate.sources.base import DocumentState
    from engine.generate.sources.person import person_number

    rng = random.Random(11)
    first = ["Percy", "Ada", "John", "Théodolinde", "Joséphine", "Dr", ""]
    last = ["Lewis", "de Beauharnais", "Lovelace", "Parke Lewis", "Smith"]
    for _ in range(50):
        names = [(f"{rng.choice(first)} {rng.choice(last)}".strip(), rng.choice([None, None, "e1", "e2"])) for _ in range(60)]
        state = DocumentState()
        assert [person_number(state, t, e) for t, e in names] == _numbers_by_scan(names)
