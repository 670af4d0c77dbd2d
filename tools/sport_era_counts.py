"""Count two kinds of false replacement in raw biographies: a country or city shown as a
place where it stands for a sports team, and an era marker ("BC", "AD") shown as a span of
its own.

    python tools/sport_era_counts.py sanitize --docs bios.jsonl --store STORE --out out.jsonl
    python tools/sport_era_counts.py count out.jsonl [--show]

``sanitize`` detects and sanitizes each document (JSON lines ``{"id", "text"}``) and writes
one JSON line per document with its replacements: original, rung, offsets, the sentence.
``count`` prints, per file,

- **place in a team slot**: a replacement whose rung names a place kind (country, state,
  republic, city, town, …, no "team") where the span stands in a side's slot: right after
  "win/victory/defeat over|against|to", "beat", "defeated", "lost to", "drew with",
  "captained", "against", "played for", or right before "'s … innings|matches|group|tour|side",
  "won", "beat", "lost" or a score ("2–1"); the cue list is this tool's own, so that it does
  not grade the rule with only the rule's words ("against" alone counts here, a war's too);
- **era marker span**: a replacement whose original is only an era marker (BC, AD, BCE,
  CE, B.C., A.D.).

The counts are pattern-based: a measure, not a proof.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from blind_batch import read_docs, sanitized

_ERA = re.compile(r"^(?:BC|AD|BCE|CE|B\.C\.?|A\.D\.?|B\.C\.E\.?|C\.E\.?)$")
_PLACE_RUNG = re.compile(r"\b(?:country|state|republic|kingdom|nation|city|town|municipality|commune|capital|island|territory|subdivision|settlement)\b", re.I)
_TEAM_RUNG = re.compile(r"\bteam\b|\bclub\b", re.I)
_BEFORE = re.compile(
    r"(?:\b(?:win|victory|defeat|loss|draw)s?\s+(?:over|against|to|with)\s+(?:the\s+)?(?:\w+\s+)?"
    r"|\b(?:beat|defeated|lost\s+to|drew\s+with|captained|against|(?:played|caps|appearances)\s+for)\s+(?:the\s+)?)$", re.I)
_AFTER = re.compile(
    r"^(?:['’]s\s+(?:\w+\s+){0,2}?(?:innings|matches|match|group|tour|side|team|squad)\b"
    r"|\s+(?:won|beat|defeated|drew|lost)\b|\s+\d+\s*[–—-]\s*\d+)", re.I)


def _sentence(text: str, start: int, end: int) -> str:
    a = max(text.rfind(". ", 0, start), text.rfind("\n", 0, start)) + 1
    b = min([i for i in (text.find(". ", end), text.find("\n", end)) if i >= 0] or [len(text)])
    return text[a:b + 1].strip()


def sanitize(docs: Path, store: str | None, out: Path) -> None:
    from engine import Engine

    engine = Engine.from_config(store=store) if store else Engine.from_config()
    rows = read_docs(docs)
    with out.open("w", encoding="utf-8") as f:
        for (doc_id, text), res in zip(rows, sanitized(engine, [text for _, text in rows])):
            reps = [{"original": r.original, "rung": r.rung, "shown": r.replacement, "kept": r.kept,
                     "start": r.mention.start, "end": r.mention.end, "type": r.mention.entity_type.value,
                     "sentence": _sentence(text, r.mention.start, r.mention.end)} for r in res.replacements]
            f.write(json.dumps({"id": doc_id, "replacements": reps}, ensure_ascii=False) + "\n")


def in_team_slot(rep: dict) -> bool:
    """The span stands in a side's slot of its sentence (this tool's own cues, see the docstring)."""
    sentence, original = rep["sentence"], rep["original"]
    for m in re.finditer(re.escape(original), sentence):
        if _BEFORE.search(sentence[max(0, m.start() - 40):m.start()]) or _AFTER.match(sentence[m.end():m.end() + 60]):
            return True
    return False


def count(paths: list[Path], show: bool) -> None:
    for path in paths:
        team, era = [], []
        for line in path.read_text(encoding="utf-8").splitlines():
            for rep in json.loads(line)["replacements"]:
                if rep["kept"]:
                    continue
                if _ERA.match(rep["original"].strip()):
                    era.append(rep)
                elif _PLACE_RUNG.search(rep["rung"] or "") and not _TEAM_RUNG.search(rep["rung"]) and in_team_slot(rep):
                    team.append(rep)
        print(f"{path}: place in a team slot {len(team)}, era marker span {len(era)}")
        if show:
            for rep in team + era:
                print(f"  {rep['original']!r} -> {rep['rung']!r}\t{rep['sentence'][:160]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("sanitize")
    s.add_argument("--docs", type=Path, required=True)
    s.add_argument("--store")
    s.add_argument("--out", type=Path, required=True)
    c = sub.add_parser("count")
    c.add_argument("files", type=Path, nargs="+")
    c.add_argument("--show", action="store_true")
    args = parser.parse_args()
    if args.command == "sanitize":
        sanitize(args.docs, args.store, args.out)
    else:
        count(args.files, args.show)


if __name__ == "__main__":
    main()
