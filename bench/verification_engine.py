"""Benchmark of the local verification engine (dlib + tesseract): stage times, OCR accuracy, 1:N face search, memory.

    .venv/bin/python bench/verification_engine.py              # 15 timed runs, 30 cards, N = 10,000
    .venv/bin/python bench/verification_engine.py --runs 30 --cards 60 --gallery 100000

Measures, each figure against a baseline measured in the same run:

* **stages**: p50/p95 over ``--runs`` runs of the quality gate (one card, one selfie), OCR of the card, face
  comparison (card against selfie) and the whole pipeline of one job (gate on both images, OCR, comparison).
  Baseline for the gate: what a first draft does, dlib's detector on the full-size photo upsampled once.
* **OCR accuracy**: exact-match rate per field over ``--cards`` rendered cards (random names with hyphens,
  apostrophes and accents, random dates, every layout, mild blur and brightness changes). Baseline: tesseract's
  default page segmentation (psm 3), which splits labels and values into separate columns.
* **1:N search**: the nearest of N stored face descriptors (``--gallery`` random 128-d vectors scaled to the
  real descriptors' norm, plus obama2's and biden's) to a query, as one numpy matrix product; baseline: a
  Python loop of ``np.linalg.norm``.
  Checks that the query's own other photo comes back first.
* **memory**: peak RSS of this process after dlib's models load, and at the end.

The cards and selfies are rendered by ``verification.engine.cards`` from the three face photos in
``verification/fixtures/faces``; everything is deterministic (``--seed``). No database, no network.
"""

import argparse
import os
import random
import resource
import statistics
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from anyascii import anyascii  # noqa: E402

from verification.engine import id_fields, ocr  # noqa: E402
from verification.engine.cards import LAYOUTS, render_id_card, render_selfie  # noqa: E402
from verification.engine.images import load_image  # noqa: E402
from verification.engine.local import LocalProvider, models  # noqa: E402

FACES = ROOT / "verification" / "fixtures" / "faces"
FIRST = ["Nomvula", "Sipho", "Thandeka", "Bheki", "Lindiwe", "Mandla", "Zanele", "Sibusiso", "Nokuthula",
         "Themba", "Dumisani", "Phindile", "Anne-Marie", "José", "Zoë", "Jean-Luc", "Nkosinathi"]  # fmt: skip
LAST = ["Dlamini", "Shongwe", "Nkosi", "Mamba", "Simelane", "Magagula", "Dlamini-Shongwe", "O'Neil", "Hlophe",
        "Mavuso", "Motsa", "Zwane", "Gamedze", "Kunene", "Van der Merwe", "Müller"]  # fmt: skip
FIELDS = ("firstName", "lastName", "idNumber", "dateOfBirth", "sex", "nationality", "expiryDate")


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def percentiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95


def timed(fn, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def random_card(rng: random.Random, faces: list[bytes]) -> tuple[dict, bytes]:
    first = rng.choice(FIRST) + (" " + rng.choice(FIRST) if rng.random() < 0.3 else "")
    truth = {
        "first_name": first,
        "last_name": rng.choice(LAST),
        "id_number": "".join(str(rng.randint(0, 9)) for _ in range(13)),
        "date_of_birth": date(rng.randint(1940, 2006), rng.randint(1, 12), rng.randint(1, 28)),
        "sex": rng.choice("MF"),
        "nationality": rng.choice(["SWAZI", "SOUTH AFRICAN", "MOZAMBICAN"]),
        "expiry_date": None if rng.random() < 0.3 else date(rng.randint(2026, 2036), rng.randint(1, 12), 15),
    }
    data = render_id_card(
        face=rng.choice(faces),
        layout=rng.choice(LAYOUTS),
        blur=rng.choice([0, 0, 0.5, 1.0]),
        brightness=rng.uniform(0.75, 1.15),
        fmt=rng.choice(["PNG", "JPEG"]),
        **truth,
    )
    return truth, data


def expected(truth: dict) -> dict:
    return {
        "firstName": " ".join(part for part in id_fields.clean_name(truth["first_name"]).split()),
        "lastName": id_fields.clean_name(truth["last_name"]),
        "idNumber": truth["id_number"],
        "dateOfBirth": truth["date_of_birth"],
        "sex": {"M": "MALE", "F": "FEMALE"}[truth["sex"]],
        "nationality": truth["nationality"],
        "expiryDate": truth["expiry_date"],
    }


def got(fields) -> dict:
    return {
        "firstName": fields.first_name,
        "lastName": fields.last_name,
        "idNumber": fields.id_number,
        "dateOfBirth": fields.date_of_birth,
        "sex": fields.sex,
        "nationality": fields.nationality,
        "expiryDate": fields.expiry_date,
    }


def ocr_accuracy(cards: list[tuple[dict, bytes]], config: str) -> tuple[dict[str, float], float, float]:
    """Exact-match rate per field (and of the names with accents folded), share of complete results, seconds
    per card."""
    saved = ocr.TESSERACT_CONFIG
    ocr.TESSERACT_CONFIG = config
    hits = dict.fromkeys((*FIELDS, "names, accents folded"), 0)
    complete = 0
    start = time.perf_counter()
    try:
        for truth, data in cards:
            lines, raw = ocr.read_lines(load_image(data))
            result = ocr.result_from_parsed(id_fields.parse_lines(lines), raw)
            complete += result.complete
            answer, want = got(result.fields), expected(truth)
            for name in FIELDS:
                hits[name] += answer[name] == want[name]
            names = [(anyascii(answer[n]), anyascii(want[n])) for n in ("firstName", "lastName")]
            hits["names, accents folded"] += all(a == b for a, b in names)
    finally:
        ocr.TESSERACT_CONFIG = saved
    seconds = (time.perf_counter() - start) / len(cards)
    return {name: count / len(cards) for name, count in hits.items()}, complete / len(cards), seconds


def naive_detect(data: bytes) -> int:
    """A first draft's face detection: the full-size photo, upsampled once."""
    rgb = np.ascontiguousarray(np.asarray(load_image(data)))
    return len(models().detector(rgb, 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--cards", type=int, default=30)
    parser.add_argument("--gallery", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}  (cpus: {os.cpu_count()})")
    rss_start = rss_mb()
    start = time.perf_counter()
    models()
    print(f"dlib models loaded in {time.perf_counter() - start:.2f} s; peak RSS {rss_start:.0f} -> {rss_mb():.0f} MB")

    photos = {name: (FACES / f"{name}.jpg").read_bytes() for name in ("obama", "obama2", "biden")}
    provider = LocalProvider()
    card = render_id_card(
        face=photos["obama"], first_name="Barack", last_name="Obama", id_number="6108041234567",
        date_of_birth=date(1961, 8, 4), sex="M", expiry_date=date(2030, 1, 31),
    )  # fmt: skip
    selfie = render_selfie(photos["obama2"])
    full_selfie = photos["biden"]  # 970x2204: what a phone uploads

    def pipeline():
        provider.check_quality(card, role="idFront")
        provider.check_quality(selfie, role="selfie")
        provider.extract_text(card)
        provider.compare_faces(card, selfie)

    pipeline()  # warm: first tesseract call, caches
    stages = [
        ("quality gate, card 1000x630", lambda: provider.check_quality(card, role="idFront")),
        ("  baseline: card, full size, upsample 1", lambda: naive_detect(card)),
        ("quality gate, selfie 970x2204", lambda: provider.check_quality(full_selfie, role="selfie")),
        ("  baseline: selfie, full size, ups. 1", lambda: naive_detect(full_selfie)),
        ("OCR, card", lambda: provider.extract_text(card)),
        ("face comparison, card vs selfie", lambda: provider.compare_faces(card, selfie)),
        ("pipeline of one job", pipeline),
    ]
    print(f"\nStage times, {args.runs} runs")
    print(f"{'stage':<40} {'p50 ms':>8} {'p95 ms':>8}")
    medians = {}
    for label, fn in stages:
        p50, p95 = percentiles(timed(fn, args.runs))
        medians[label] = p50
        print(f"{label:<40} {p50 * 1000:>8.0f} {p95 * 1000:>8.0f}")
    for label in ("quality gate, card 1000x630", "quality gate, selfie 970x2204"):
        index = [name for name, _ in stages].index(label)
        baseline = medians[stages[index + 1][0]]
        print(f"{label}: {baseline / medians[label]:.1f}x faster than the baseline's detection alone")
    assert len(medians) == len(stages)
    comparison = provider.compare_faces(card, selfie)
    other = provider.compare_faces(card, render_selfie(photos["biden"]))
    print(
        f"similarity obama card vs obama2 selfie {comparison.similarity:.1f} (distance {comparison.distance:.3f}); "
        f"vs biden selfie {other.similarity:.1f} (distance {other.distance:.3f})"
    )

    print(f"\nOCR accuracy over {args.cards} rendered cards (exact match per field)")
    faces = list(photos.values())
    cards = [random_card(rng, faces) for _ in range(args.cards)]
    ours, ours_complete, ours_seconds = ocr_accuracy(cards, ocr.TESSERACT_CONFIG)
    base, base_complete, base_seconds = ocr_accuracy(cards, "--oem 1 --psm 3")
    print(f"{'field':<22} {'ours (psm 4)':>13} {'baseline (psm 3)':>17}")
    for name in ours:
        print(f"{name:<22} {ours[name]:>13.0%} {base[name]:>17.0%}")
    print(f"{'complete':<22} {ours_complete:>13.0%} {base_complete:>17.0%}")
    print(f"{'s per card':<22} {ours_seconds:>13.2f} {base_seconds:>17.2f}")

    print(f"\n1:N face search, N = {args.gallery:,} random vectors (scaled to the real ones' norm) + 2 real faces")
    vectors = {name: np.array(provider.embed_face(data)) for name, data in photos.items()}
    noise = np.random.default_rng(args.seed).normal(size=(args.gallery, 128))
    # real descriptors have a norm of about 0.6-0.8 on their own; scale the random ones alike
    typical_norm = float(np.mean([np.linalg.norm(v) for v in vectors.values()]))
    noise *= typical_norm / np.linalg.norm(noise, axis=1, keepdims=True)
    gallery = np.vstack([noise, vectors["obama2"], vectors["biden"]]).astype(np.float32)
    gallery_sq = (gallery**2).sum(axis=1)
    query = vectors["obama"].astype(np.float32)

    def search():
        distances = np.sqrt(np.maximum(gallery_sq - 2 * gallery @ query + query @ query, 0))
        return int(np.argmin(distances)), float(distances.min())

    def loop_search():
        best, best_index = float("inf"), -1
        for index, row in enumerate(gallery):
            distance = float(np.linalg.norm(row - query))
            if distance < best:
                best, best_index = distance, index
        return best_index, best

    found, distance = search()
    assert loop_search()[0] == found
    ours_p50, ours_p95 = percentiles(timed(search, max(args.runs, 50)))
    loop_p50, _ = percentiles(timed(loop_search, 3))
    print(
        f"nearest to obama.jpg: row {found} ({'obama2' if found == args.gallery else 'other'}), distance {distance:.3f}"
    )
    print(f"matrix: p50 {ours_p50 * 1000:.2f} ms, p95 {ours_p95 * 1000:.2f} ms per query")
    print(f"baseline python loop: p50 {loop_p50 * 1000:.0f} ms ({loop_p50 / ours_p50:.0f}x slower)")
    print(f"gallery in memory: {gallery.nbytes / 1024 / 1024:.1f} MB (float32)")

    print(f"\npeak RSS at the end: {rss_mb():.0f} MB")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
