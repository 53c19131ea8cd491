#!/bin/sh
# hipport in any CI: a plain shell step that reads the exit code.
#   0  no finding at or above --fail-on
#   1  findings at or above --fail-on (new ones only, when a baseline is present)
#   2  usage or internal error (bad option, unreadable configuration, unwritable report)
# Keep $HIPPORT_CACHE_DIR between runs with your CI's cache so unchanged files are not
# lexed again.
set -u

: "${HIPPORT_CACHE_DIR:=.hipport-cache}"
export HIPPORT_CACHE_DIR

pip install --quiet "hipport==0.1.0"

# One run: the findings on stdout, a machine-readable copy for later steps.
hipport check . --output-format concise --fail-on error --report json=hipport-report.json
status=$?

case $status in
  0) echo "hipport: the code ports to the target ROCm" ;;
  1) echo "hipport: CUDA APIs with no HIP port for the target ROCm (see above)";
     echo "hipport: explain a rule with: hipport rule CODE" ;;
  *) echo "hipport: the check itself failed (exit $status)" ;;
esac

exit "$status"
