#!/bin/sh
# hipport in any CI: a plain shell step that reads the exit code.
#   0  no finding at or above --fail-on
#   1  findings at or above --fail-on (new ones only, when a baseline is present)
#   2  usage or internal error (bad option, unreadable configuration)
set -u

pip install --quiet hipport

hipport check . --fail-on error
status=$?

case $status in
  0) echo "hipport: the code ports to the target ROCm" ;;
  1) echo "hipport: CUDA APIs with no HIP port for the target ROCm (see above)";
     echo "hipport: explain a rule with: hipport rule CODE" ;;
  *) echo "hipport: the check itself failed (exit $status)" ;;
esac

# A machine-readable copy for later steps; never fails the build on its own.
hipport check . --format json -o hipport-report.json --exit-zero

exit "$status"
