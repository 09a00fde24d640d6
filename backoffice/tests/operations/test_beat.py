"""Beat never sends one period of a periodic task twice: one leader, one send per period (real Redis)."""

import datetime as dt
import json

import pytest
from celery.schedules import crontab, schedule

from backoffice.celery import app
from backoffice.ops import periodic
from backoffice.ops.beat import LEADER_KEY, LockedScheduler


@pytest.fixture
def beats(redis_broker, tmp_path):
    made = []

    def make():
        scheduler = LockedScheduler(app=app, schedule_filename=str(tmp_path / f"beat-{len(made)}"), lazy=True)
        scheduler.setup_schedule()
        made.append(scheduler)
        return scheduler

    yield make
    for scheduler in made:
        scheduler.close()


def sent(client) -> list[dict]:
    return [json.loads(raw)["headers"] for raw in client.lrange("default", 0, -1)]


def test_the_apps_registrations_are_in_the_schedule(beats):
    beat = beats()
    entry = beat.schedule["verification-requeue-stale"]
    assert entry.task == "verification.requeue_stale_jobs"
    assert entry.schedule.run_every == dt.timedelta(seconds=60)


def test_one_beat_leads_and_a_second_stands_by_until_the_lock_is_free(beats, redis_broker):
    first, second = beats(), beats()
    assert first.lead() is True and second.lead() is False
    assert first.lead() is True  # renewing its own lock
    assert redis_broker.get(LEADER_KEY).decode() == first.identity
    assert second.tick() > 0 and sent(redis_broker) == []  # a standby sends nothing
    first.close()  # a clean stop frees the lock at once (a dead beat's lock expires)
    assert second.lead() is True


def test_one_period_is_sent_once_however_often_it_comes_due(beats, redis_broker):
    first, second = beats(), beats()
    entry = first.schedule["verification-requeue-stale"]
    first.apply_entry(entry, producer=first.producer)
    first.apply_entry(entry, producer=first.producer)  # a restart within the period
    second.apply_entry(second.schedule["verification-requeue-stale"], producer=second.producer)  # another beat
    messages = sent(redis_broker)
    assert len(messages) == 1
    key, _ = periodic.period_of("verification-requeue-stale", entry.schedule, dt.datetime.now(dt.UTC))
    assert messages[0]["task"] == "verification.requeue_stale_jobs"
    assert messages[0][periodic.PERIOD_HEADER] == key


def test_periods_are_the_same_on_every_machine():
    every_minute = schedule(dt.timedelta(seconds=60))
    at = dt.datetime(2026, 11, 21, 10, 0, 59, tzinfo=dt.UTC)
    assert (
        periodic.period_of("x", every_minute, at)[0] == periodic.period_of("x", every_minute, at.replace(second=0))[0]
    )
    assert (
        periodic.period_of("x", every_minute, at)[0]
        != periodic.period_of("x", every_minute, at + dt.timedelta(seconds=1))[0]
    )
    nightly = crontab(minute="0", hour="2")
    assert periodic.period_of("x", nightly, at)[0] == periodic.period_of("x", nightly, at.replace(second=1))[0]


def test_a_registration_names_exactly_one_schedule():
    with pytest.raises(ValueError):
        periodic.register("bad", task="x")
    with pytest.raises(ValueError):
        periodic.register("bad", task="x", every=5, crontab={"minute": "0"})
    assert "bad" not in periodic.entries()
