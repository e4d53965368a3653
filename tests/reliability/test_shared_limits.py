"""Several processes share one Redis (docs/deploy.md): the login rate limit counts an address's
attempts across all of them, so N processes do not grant N times the attempts."""

from __future__ import annotations

from spielcenter.server.ratelimits import RateLimits

from ..backends import RedisServer


async def test_login_attempts_on_two_processes_count_against_one_limit(
    redis: RedisServer,
) -> None:
    first, second = (RateLimits("5/minute", redis_url=redis.url) for _ in range(2))
    answers = [
        await process.allow_login(f"name-{k}", "203.0.113.7")
        for k, process in enumerate([first, second] * 3)
    ]
    assert answers == [True] * 5 + [False]


async def test_without_redis_each_process_counts_its_own_attempts() -> None:
    first, second = RateLimits("5/minute"), RateLimits("5/minute")
    for k in range(5):
        assert await first.allow_login(f"name-{k}", "203.0.113.8")
    assert not await first.allow_login("name-5", "203.0.113.8")
    assert await second.allow_login("name-5", "203.0.113.8")
