#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A misbehaving testee for testee_run_test.sh: window 3; hangs on int 1, exits on int 2, prints
# garbage for int 3, re-encodes int 4 as 5; answers the rest as gdwire would.
import sys, time
print("gdwire-testee/1\tfake\t0\t3", flush=True)
for line in sys.stdin:
    pid, dialect, mode, objects, hexs = line.rstrip("\n").split("\t")
    if hexs == "0200000001000000":
        time.sleep(3600)
    if hexs == "0200000002000000":
        sys.exit(1)
    if hexs == "0200000003000000":
        print("this is not an answer", flush=True)
        continue
    enc = "0200000005000000" if hexs == "0200000004000000" else hexs
    print("%s\taccepted\t%d\t%s\t-\t-" % (pid, len(hexs) // 2, enc), flush=True)
