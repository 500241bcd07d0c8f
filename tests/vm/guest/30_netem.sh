#!/bin/sh
# Inside the test VM: rate's 5 ms latency test on netem itself (a host kernel without netem runs
# it on tbf instead); here a missing netem is a failure, not a fallback.
NB_REQUIRE_NETEM=1 exec sh "$TOP/tests/integration/rate_latency.sh"
