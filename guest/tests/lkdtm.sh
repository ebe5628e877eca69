#!/bin/sh
# Provoke a real splat through LKDTM (the runner's own tests).  Installed
# as lkdtm-<type>; the type comes from the name.
t=${0##*/lkdtm-}
f=/sys/kernel/debug/provoke-crash/DIRECT
[ -w $f ] || { echo "# LKDTM not available"; exit 4; }
echo "# provoking $t"
echo "$t" >$f || { echo "# LKDTM has no crash type $t"; exit 1; }
echo "# still running after $t"
