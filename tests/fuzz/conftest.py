"""Fuzzing budget: short in CI; GAMESMASTER_FUZZ_EXAMPLES=20000 for a long run (docs/fuzzing.md)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

EXAMPLES = int(os.environ.get("GAMESMASTER_FUZZ_EXAMPLES", "150"))
settings.register_profile("fuzz", max_examples=EXAMPLES, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
