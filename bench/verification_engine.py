"""Benchmark of the local verification engine (dlib + tesseract / RapidOCR): stage and job times, OCR accuracy per
engine, 1:N face search, memory.

    .venv/bin/python bench/verification_engine.py              # 15 timed runs, 100 cards, N = 100,000
    .venv/bin/python bench/verification_engine.py --runs 30 --cards 200 --engines rapidocr

Measures, each figure against a baseline measured in the same run:

* **stages**: p50/p95 over ``--runs`` runs of the quality gate (one card, one selfie), OCR of the card with each
  engine, face comparison (card against selfie) and the whole of one job (gate on both images, OCR, comparison),
  one stage after another and with the OCR in a thread alongside the face stages. Baseline for the gate: what a
  first draft does, dlib's detector on the full-size photo upsampled once; for the overlapped job, the serial one.
* **OCR accuracy**: exact-match rate per field over ``--cards`` rendered cards (random names with hyphens,
  apostrophes and accents, random dates, every layout, blur), each then photographed badly: turned up to 4
  degrees, low light (45-60% brightness) on half of them, JPEG quality 35-95. Every engine reads the same
  cards; the ratio of their times is printed.
* **1:N search**: the nearest of N stored face descriptors (``--gallery`` random 128-d vectors scaled to the
  real descriptors' norm, plus obama2's and biden's) to a query, as one numpy matrix product; baseline: a
  Python loop of ``np.linalg.norm``.
  Checks that the query's own other photo comes back first.
* **memory**: peak RSS of this process after dlib's models load, after RapidOCR's, and at the end (tesseract
  runs in a process of its own).

The cards and selfies are rendered by ``verification.engine.cards`` from the three face photos in
``verification/fixtures/faces``; everything is deterministic (``--seed``). No database, no network.
"""

import argparse
import io
import os
import random
import resource
import statistics
import sys
import threading
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from anyascii import anyascii  # noqa: E402
from PIL import Image, ImageEnhance  # noqa: E402

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


def degrade(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """A rendered card as a phone photographs it: turned a few degrees, in low light or not, JPEG-compressed."""
    image = load_image(data)
    angle = rng.uniform(-4, 4)
    image = image.rotate(angle, resample=Image.Resampling.BICUBIC, expand=False, fillcolor=(90, 90, 90))
    brightness = rng.choice([1.0, 1.0, 0.6, 0.45])  # low light in half of them
    if brightness != 1.0:
        image = ImageEnhance.Brightness(image).enhance(brightness)
    quality = rng.choice([95, 75, 50, 35])
    out = io.BytesIO()
    image.save(out, "JPEG", quality=quality)
    return out.getvalue(), f"rot {angle:+.1f}, light {brightness}, q{quality}"


def ocr_accuracy(cards: list[tuple[dict, bytes]], engine: str) -> tuple[dict[str, float], float, list[float]]:
    """Exact-match rate per field (and of the names with accents folded, and of all fields at once), share of
    complete results, seconds per card."""
    hits = dict.fromkeys((*FIELDS, "names, accents folded", "all seven fields"), 0)
    complete = 0
    seconds = []
    misses: dict[str, list[str]] = {}
    for truth, data in cards:
        start = time.perf_counter()
        result = ocr.extract(data, engine=engine)
        seconds.append(time.perf_counter() - start)
        complete += result.complete
        answer, want = got(result.fields), expected(truth)
        for name in FIELDS:
            hits[name] += answer[name] == want[name]
            if answer[name] != want[name]:
                misses.setdefault(name, []).append(f"{answer[name]!r} for {want[name]!r}")
        hits["all seven fields"] += all(answer[name] == want[name] for name in FIELDS)
        names = [(anyascii(answer[n]), anyascii(want[n])) for n in ("firstName", "lastName")]
        hits["names, accents folded"] += all(a == b for a, b in names)
    for name, wrong in misses.items():
        print(f"  {engine} misses {name}: {'; '.join(wrong[:6])}{' ...' if len(wrong) > 6 else ''}")
    return {name: count / len(cards) for name, count in hits.items()}, complete / len(cards), seconds


def naive_detect(data: bytes) -> int:
    """A first draft's face detection: the full-size photo, upsampled once."""
    rgb = np.ascontiguousarray(np.asarray(load_image(data)))
    return len(models().detector(rgb, 1))


def memory_of(engine: str) -> None:
    """Peak RSS of a fresh process that loads the models and processes three jobs with ``engine`` (printed as
    "RSS <before> <models> <after jobs>" in MB, for the parent to read)."""
    before = rss_mb()
    provider = LocalProvider(ocr_engine=engine)
    models()
    if engine == "rapidocr":
        ocr.rapidocr_engine()
    loaded = rss_mb()
    photos = {name: (FACES / f"{name}.jpg").read_bytes() for name in ("obama", "obama2")}
    card = render_id_card(
        face=photos["obama"], first_name="Barack", last_name="Obama", id_number="6108041234567",
        date_of_birth=date(1961, 8, 4), sex="M", expiry_date=date(2030, 1, 31),
    )  # fmt: skip
    for _ in range(3):
        provider.check_quality(card, role="idFront")
        provider.check_quality(photos["obama2"], role="selfie")
        provider.extract_text(card)
        provider.compare_faces(card, photos["obama2"])
    print(f"RSS {before:.0f} {loaded:.0f} {rss_mb():.0f}")


def process_memory(engines: list[str]) -> None:
    import subprocess

    print("\nPeak RSS of a fresh process (MB): at start, models loaded, after 3 jobs (full-size selfie)")
    for engine in engines:
        output = subprocess.run(
            [sys.executable, __file__, "--memory-of", engine], capture_output=True, text=True, check=True
        ).stdout
        before, loaded, after = output.split("RSS ", 1)[1].split()
        print(f"  {engine:<10} {before:>5} {loaded:>7} {after:>7}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--cards", type=int, default=100)
    parser.add_argument("--gallery", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--engines", default="tesseract,rapidocr")
    parser.add_argument("--memory-of", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.memory_of:
        memory_of(args.memory_of)
        return
    rng = random.Random(args.seed)
    engines = [engine for engine in args.engines.split(",") if engine]
    process_memory(engines)

    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}  (cpus: {os.cpu_count()})")
    rss_start = rss_mb()
    start = time.perf_counter()
    models()
    print(f"dlib models loaded in {time.perf_counter() - start:.2f} s; peak RSS {rss_start:.0f} -> {rss_mb():.0f} MB")
    if "rapidocr" in engines:
        before = rss_mb()
        start = time.perf_counter()
        ocr.rapidocr_engine()
        print(f"RapidOCR loaded in {time.perf_counter() - start:.2f} s; peak RSS {before:.0f} -> {rss_mb():.0f} MB")

    photos = {name: (FACES / f"{name}.jpg").read_bytes() for name in ("obama", "obama2", "biden")}
    card = render_id_card(
        face=photos["obama"], first_name="Barack", last_name="Obama", id_number="6108041234567",
        date_of_birth=date(1961, 8, 4), sex="M", expiry_date=date(2030, 1, 31),
    )  # fmt: skip
    selfie = render_selfie(photos["obama2"])
    full_selfie = photos["biden"]  # 970x2204: what a phone uploads

    def pipeline(provider):
        provider.check_quality(card, role="idFront")
        provider.check_quality(selfie, role="selfie")
        provider.extract_text(card)
        provider.compare_faces(card, selfie)

    def pipeline_overlapped(provider):
        # OCR in a thread while the faces are checked and compared: tesseract runs in its own process and
        # onnxruntime releases the GIL, so on 2 CPUs the two stages overlap
        thread = threading.Thread(target=provider.extract_text, args=(card,))
        thread.start()
        provider.check_quality(card, role="idFront")
        provider.check_quality(selfie, role="selfie")
        provider.compare_faces(card, selfie)
        thread.join()

    providers = {engine: LocalProvider(ocr_engine=engine) for engine in engines}
    for provider in providers.values():
        pipeline(provider)  # warm: first OCR call, caches
    any_provider = next(iter(providers.values()))
    stages = [
        ("quality gate, card 1000x630", lambda: any_provider.check_quality(card, role="idFront")),
        ("  baseline: card, full size, upsample 1", lambda: naive_detect(card)),
        ("quality gate, selfie 970x2204", lambda: any_provider.check_quality(full_selfie, role="selfie")),
        ("  baseline: selfie, full size, ups. 1", lambda: naive_detect(full_selfie)),
        ("face comparison, card vs selfie", lambda: any_provider.compare_faces(card, selfie)),
    ]
    for engine, provider in providers.items():
        stages += [
            (f"OCR, card, {engine}", lambda p=provider: p.extract_text(card)),
            (f"job, {engine}, one stage after another", lambda p=provider: pipeline(p)),
            (f"job, {engine}, OCR alongside the faces", lambda p=provider: pipeline_overlapped(p)),
        ]
    print(f"\nStage times, {args.runs} runs (the stages of one job interleaved, so load hits them alike)")
    times: dict[str, list[float]] = {label: [] for label, _ in stages}
    for _ in range(args.runs):
        for label, fn in stages:
            start = time.perf_counter()
            fn()
            times[label].append(time.perf_counter() - start)
    print(f"{'stage':<44} {'p50 ms':>8} {'p95 ms':>8}")
    medians = {}
    for label, _ in stages:
        p50, p95 = percentiles(times[label])
        medians[label] = p50
        print(f"{label:<44} {p50 * 1000:>8.0f} {p95 * 1000:>8.0f}")
    for label in ("quality gate, card 1000x630", "quality gate, selfie 970x2204"):
        index = [name for name, _ in stages].index(label)
        baseline = medians[stages[index + 1][0]]
        print(f"{label}: {baseline / medians[label]:.1f}x faster than the baseline's detection alone")
    for engine in engines:
        serial, overlapped = (
            medians[f"job, {engine}, one stage after another"],
            medians[f"job, {engine}, OCR alongside the faces"],
        )
        print(f"job with {engine}: OCR alongside the faces takes {overlapped / serial:.2f}x the serial time")
    comparison = any_provider.compare_faces(card, selfie)
    other = any_provider.compare_faces(card, render_selfie(photos["biden"]))
    print(
        f"similarity obama card vs obama2 selfie {comparison.similarity:.1f} (distance {comparison.distance:.3f}); "
        f"vs biden selfie {other.similarity:.1f} (distance {other.distance:.3f})"
    )

    print(f"\nOCR accuracy over {args.cards} rendered cards with noise (exact match per field)")
    faces = list(photos.values())
    cards = []
    for _ in range(args.cards):
        truth, data = random_card(rng, faces)
        cards.append((truth, degrade(data, rng)[0]))
    results = {}
    for engine in engines:
        before = rss_mb()
        results[engine] = ocr_accuracy(cards, engine)
        print(f"  {engine}: peak RSS {before:.0f} -> {rss_mb():.0f} MB over the cards")
    print(f"{'field':<24}" + "".join(f"{engine:>12}" for engine in engines))
    for name in results[engines[0]][0]:
        print(f"{name:<24}" + "".join(f"{results[engine][0][name]:>12.0%}" for engine in engines))
    print(f"{'complete':<24}" + "".join(f"{results[engine][1]:>12.0%}" for engine in engines))
    print(f"{'s per card, p50':<24}" + "".join(f"{percentiles(results[e][2])[0]:>12.2f}" for e in engines))
    print(f"{'s per card, p95':<24}" + "".join(f"{percentiles(results[e][2])[1]:>12.2f}" for e in engines))
    if len(engines) == 2:
        a, b = engines
        ratio = percentiles(results[b][2])[0] / percentiles(results[a][2])[0]
        print(f"{b} takes {ratio:.2f}x the time of {a} per card")

    print(f"\n1:N face search, N = {args.gallery:,} random vectors (scaled to the real ones' norm) + 2 real faces")
    vectors = {name: np.array(any_provider.embed_face(data)) for name, data in photos.items()}
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
    norm_p50, _ = percentiles(timed(lambda: np.argmin(np.linalg.norm(gallery - query, axis=1)), 10))
    print(
        f"nearest to obama.jpg: row {found} ({'obama2' if found == args.gallery else 'other'}), distance {distance:.3f}"
    )
    print(f"matrix: p50 {ours_p50 * 1000:.2f} ms, p95 {ours_p95 * 1000:.2f} ms per query")
    print(f"baseline python loop: p50 {loop_p50 * 1000:.0f} ms ({loop_p50 / ours_p50:.0f}x slower)")
    print(f"baseline np.linalg.norm(gallery - query): p50 {norm_p50 * 1000:.1f} ms ({norm_p50 / ours_p50:.1f}x)")
    print(f"gallery in memory: {gallery.nbytes / 1024 / 1024:.1f} MB (float32)")

    print(f"\npeak RSS at the end: {rss_mb():.0f} MB")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
