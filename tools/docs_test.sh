#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# docs_test.sh GDWIRE — runs tools/docs_test.py (the README's examples, the links) from the runfiles root.
exec python3 tools/docs_test.py "$@"
