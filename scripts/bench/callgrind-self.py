#!/usr/bin/env python3
"""callgrind-self.py FILE [N] [DIVISOR] [inclusive]: the N functions (default 30) with the most
instructions of their own (self cost) in a callgrind output file, each divided by DIVISOR
(default 1, e.g. the number of requests measured); with "inclusive", the most instructions
including what they call (recursion counted once per call site). Reads the format directly (name compression, call lines),
since callgrind_annotate 3.19 mis-attributes costs in dumps taken after a zeroing."""
import collections, re, sys

path = sys.argv[1]
top = int(sys.argv[2]) if len(sys.argv) > 2 else 30
divisor = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
inclusive_mode = len(sys.argv) > 4 and sys.argv[4] == "inclusive"
inclusive = collections.Counter()
names = {}          # compressed id -> name, per kind (ob, fn)
self_cost = collections.Counter()
objects = {}
fn = ob = callee = None
skip_next = False   # the cost line after "calls=" is the call's inclusive cost, not self cost
compressed = re.compile(r"^\((\d+)\)(?: (.*))?$")

def name(kind, text):
    m = compressed.match(text)
    if not m:
        return text
    key = (kind, m.group(1))
    if m.group(2) is not None:
        names[key] = m.group(2)
    return names.get(key, text)

total = 0
for line in open(path, errors="replace"):
    line = line.rstrip("\n")
    if not line:
        continue
    head = line[:3]
    if head == "ob=":
        ob = name("ob", line[3:])
    elif head == "fn=":
        fn = name("fn", line[3:])
        objects[fn] = ob
    elif line.startswith(("cob=", "cfn=", "cfi=", "cfl=")):
        kind = "fn" if line.startswith("cfn=") else ("ob" if line.startswith("cob=") else "fl")
        called = name(kind, line.split("=", 1)[1])
        if kind == "fn":
            callee = called
    elif line.startswith("calls="):
        skip_next = True
    elif line[0].isdigit() or line[0] in "+-*":
        if skip_next:
            skip_next = False
            parts = line.split()
            if len(parts) >= 2 and fn is not None and callee != fn:
                inclusive[fn] += int(parts[1])
            continue
        parts = line.split()
        if len(parts) >= 2 and fn is not None:
            cost = int(parts[1])
            self_cost[fn] += cost
            inclusive[fn] += cost
            total += cost

print(f"   {'instructions':>12}  {'share':>6}  function")
for function, cost in (inclusive if inclusive_mode else self_cost).most_common(top):
    lib = (objects.get(function) or "").rsplit("/", 1)[-1]
    print(f"   {cost / divisor:12.0f}  {100.0 * cost / total:5.1f}%  {function[:110]} [{lib}]")
print(f"   {total / divisor:12.0f}  100.0%  total")
