"""Write kg/data/sample.nt: the small embedded graph used by the README demo and the tests.

The items are chosen by hand (ITEMS below: well-known people-related classes, places,
organisations and demonyms). Their facts are the Wikidata facts the shared seed holds:
label, aliases, description, P31/P279/P361 edges walked upward until a class the
overlay never offers (or 8 hops), P17 of places, P1549 demonyms of countries, P31 of
continents. Run it from the repository root with the seed beside the repository:

    python tools/make_sample.py ../shared/data/wikidata-seed/wikidata-seed.nt.gz

tests/kg/test_sample.py checks every triple of the result against the seed.
"""

from __future__ import annotations

import gzip
import re
import sys
from collections import defaultdict
from pathlib import Path

WD = "http://www.wikidata.org/entity/"
WDT = "http://www.wikidata.org/prop/direct/"
TEXT = {
    "http://www.w3.org/2000/01/rdf-schema#label",
    "http://www.w3.org/2004/02/skos/core#altLabel",
    "http://schema.org/description",
}
ITEMS = {
    # occupations and roles
    "Q520549": "geologist", "Q593644": "chemist", "Q170790": "mathematician", "Q901": "scientist",
    "Q36180": "writer", "Q42973": "architect", "Q82955": "politician", "Q40348": "lawyer",
    "Q937857": "association football player", "Q33999": "actor", "Q177220": "singer",
    "Q1622272": "university teacher", "Q39631": "physician", "Q169470": "physicist",
    "Q1930187": "journalist", "Q36834": "composer", "Q1028181": "painter",
    # places
    "Q585": "Oslo", "Q20": "Norway", "Q84": "London", "Q145": "United Kingdom", "Q72": "Zürich",
    "Q39": "Switzerland", "Q90": "Paris", "Q142": "France", "Q64": "Berlin", "Q183": "Germany",
    "Q60": "New York City", "Q30": "United States", "Q46": "Europe", "Q3033": "Göttingen",
    "Q1754": "Stockholm", "Q34": "Sweden",
    # organisations
    "Q486156": "University of Oslo", "Q34433": "University of Oxford", "Q35794": "University of Cambridge",
    # languages / groups
    "Q9043": "Norwegian", "Q1860": "English", "Q5": "human",
}
NEVER = {
    "Q19478619", "Q104086571", "Q24017414", "Q23958852", "Q16889133", "Q5127848", "Q21146257",
    "Q58415929", "Q103940464", "Q67518978", "Q35120", "Q488383", "Q7048977", "Q7184903",
    "Q23958946", "Q99527517", "Q16686448", "Q27096213", "Q1190554", "Q151885", "Q937228",
    "Q58778", "Q16887380", "Q24229398", "Q98966309", "Q17444909", "Q1307214", "Q2393196",
}
TAXO = ("P31", "P279", "P361")
LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
ALIAS = "http://www.w3.org/2004/02/skos/core#altLabel"
LINE = re.compile(r"^<([^>]+)> <([^>]+)> (.+) \.$")


def main(seed: str, out: str = "kg/data/sample.nt", hops: int = 8) -> None:
    facts: dict[str, list[tuple[str, str]]] = defaultdict(list)
    with gzip.open(seed, "rt", encoding="utf-8") as fh:
        for line in fh:
            m = LINE.match(line.rstrip("\n"))
            if m and m.group(1).startswith(WD + "Q"):
                facts[m.group(1)[len(WD):]].append((m.group(2), m.group(3)))
    keep: set[str] = set()
    items: set[str] = set()
    aliases: dict[str, int] = defaultdict(int)

    def edges(q: str, props: tuple[str, ...]) -> list[str]:
        return [o[len(WD) + 1:-1] for p, o in facts.get(q, []) if p in {WDT + x for x in props} and o.startswith("<" + WD)]

    frontier = list(ITEMS)
    for depth in range(hops + 1):
        nxt = []
        for q in frontier:
            if q in items or q in NEVER:
                continue
            items.add(q)
            for p, o in facts.get(q, []):
                prop = p[len(WDT):] if p.startswith(WDT) else None
                if p == ALIAS and q in ITEMS:
                    aliases[q] += 1
                    if aliases[q] > 4:
                        continue
                if prop in TAXO or p == LABEL or (p in TEXT and q in ITEMS):
                    keep.add(f"<{WD}{q}> <{p}> {o} .")
                if prop in TAXO:
                    nxt.append(o[len(WD) + 1:-1])
            if q in ITEMS:
                for p, o in facts.get(q, []):
                    if p == WDT + "P1549" or (p == WDT + "P17" and o[len(WD) + 1:-1] in ITEMS):
                        keep.add(f"<{WD}{q}> <{p}> {o} .")
        frontier = nxt
    Path(out).write_text("".join(sorted(line + "\n" for line in keep)), encoding="utf-8")
    print(f"{len(keep)} triples about {len(items)} items -> {out}")


if __name__ == "__main__":
    main(*sys.argv[1:])
