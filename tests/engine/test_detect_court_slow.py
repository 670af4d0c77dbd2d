"""``taxogen evaluate detection`` on court judgments prints TAB's own measures (slow: spaCy, the seed store)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.cli import app

OPENING = ("PROCEDURE\nThe case originated in an application against the Republic of Veldoria lodged with the Court "
           "by a Veldorian national, {name} (the applicant).\nTHE CIRCUMSTANCES OF THE CASE\n")
FACTS = ("The applicant was born in {year} and lives in {town}. On {day} the applicant lodged a complaint with the "
         "{town} District Court. The Court notes that the applicant was heard by the Government's Agent.\n")
PEOPLE = [("Ms Ilse Marrow", "1961", "Osterbrook", "3 March 1999"), ("Mr Tobias Wrenfield", "1958", "Lyon", "9 May 2001"),
          ("Mr Arvid Holmqvist", "1970", "Bergen", "14 June 2003"), ("Ms Dana Petrescu", "1949", "Brasov", "2 April 1998")]


def _judgment(k: int, name: str, year: str, town: str, day: str) -> dict:
    text = OPENING.format(name=name) + FACTS.format(year=year, town=town, day=day)
    mentions = []

    def add(part: str, etype: str, ident: str, entity: str, nth: int = 0) -> None:
        start = -1
        for _ in range(nth + 1):
            start = text.index(part, start + 1)
        mentions.append({"entity_type": etype, "entity_mention_id": f"m{len(mentions)}", "start_offset": start,
                         "end_offset": start + len(part), "span_text": part, "edit_type": "check",
                         "identifier_type": ident, "entity_id": entity, "confidential_status": "NOT_CONFIDENTIAL"})

    add(name.split(" ", 1)[1], "PERSON", "DIRECT", "person")
    add(year, "DATETIME", "QUASI", "year")
    add(town, "LOC", "QUASI", "town")
    add(day, "DATETIME", "QUASI", "day")
    add(town, "LOC", "QUASI", "town", nth=1)
    add("Court", "ORG", "NO_MASK", "court", nth=1)
    return {"doc_id": f"judgment-{k}", "text": text, "dataset_type": "train",
            "meta": {"applicant": name, "countries": "Veldoria", "year": 2005, "task": f"Protect {name}"},
            "annotations": {"annotator1": {"entity_mentions": mentions}}}


@pytest.mark.slow
def test_given_annotated_judgments_when_evaluate_detection_then_tab_measures_are_printed(tmp_path: Path, seed_store: Path):
    data = tmp_path / "judgments.json"
    data.write_text(json.dumps([_judgment(k, *p) for k, p in enumerate(PEOPLE)]), encoding="utf-8")
    args = ["evaluate", "detection", "--data", str(data), "--folds", "2", "--no-baselines", "--folds-only",
            "--packs", "core,biography,sport,legal", "--store", str(seed_store)]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "TAB's measures" in res.output
    lines = res.output.splitlines()
    block = lines[next(i for i, line in enumerate(lines) if "TAB's measures" in line):]
    row = next(line for line in block if line.split()[:1] == ["taxogen"])
    assert len(row.split()) == 7  # the system, then entity, DIRECT and QUASI recall, token recall, token and mention precision
    res = CliRunner().invoke(app, args + ["--json"])
    report = json.loads(res.output[res.output.index("{"):])
    tab = report["tab_measures"]["taxogen"]
    assert 0.0 <= tab["token_precision"] <= 1.0 and 0.0 <= tab["entity_recall_direct"] <= 1.0
