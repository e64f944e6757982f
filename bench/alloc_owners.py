#!/usr/bin/env python3
"""Which of durasim's own functions the allocations come from (issue 31).

callgrind counts the calls of `operator new`, but its callers are mostly the
standard library's and Asio's templates (a tree's node, a string's buffer),
shared by everyone. This walks the call graph up from `operator new` to the
first function of durasim's own (one whose qualified name starts with
`durasim::` and is not a comparison operator or the decode memo) and charges
the allocations there, with the callee they came through.

  bench/alloc_owners.py CALLGRIND_OUT [ROWS=40]

CALLGRIND_OUT: from `valgrind --tool=callgrind --callgrind-out-file=F
build/durasim explore --seeds 300 --jobs 1`, for instance. Approximate: a
function's allocations are split among its callers in proportion to how
often each called it, not by which call allocated, so a row is exact only
where every function between the owner and `operator new` allocates the same
on every call. A function met again on its own call path is charged to
"(recursion)".
"""
import collections
import re
import signal
import sys

TARGET = re.compile(r"^operator new")  # every overload; the wrappers' calls of the base are skipped
NOT_OWNERS = re.compile(r"::operator(<=>|<|==|!=)$|^durasim::DecodedValues::Memo")
STRING = "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >"
DEPTH_MAX = 40


def call_graph(path):
    """callee -> caller -> calls, from callgrind's fn=/cfn=/calls= lines."""
    names = {}
    callers = collections.defaultdict(collections.Counter)
    function = callee = None

    def name(token):
        match = re.match(r"\((\d+)\)(?: (.*))?", token)
        if not match:
            return token
        if match.group(2):
            names[match.group(1)] = match.group(2)
        return names[match.group(1)]

    with open(path, encoding="utf-8", errors="replace") as out:
        for line in out:
            if line.startswith("fn="):
                function = name(line[3:].rstrip("\n"))
            elif line.startswith("cfn="):
                callee = name(line[4:].rstrip("\n"))
            elif line.startswith("calls="):
                callers[callee][function] += int(line[6:].split()[0])
    return callers


def qualified_name(function):
    """The demangled name without its return type, parameters and suffixes:
    "void durasim::Scheduler::Arm<H>(...)" -> "durasim::Scheduler::Arm<H>"."""
    # Operators whose names hold brackets would unbalance the count below.
    text = re.sub(r"operator(<=>|<<=?|>>=?|<=|>=|<|>|->\*?|\(\)|\[\])", lambda m: "operator" + "@" * len(m.group(1)),
                  function)
    depth = 0
    for i, char in enumerate(text):
        if char in "<(":
            if char == "(" and depth == 0:
                text, function = text[:i], function[:i]
                break
            depth += 1
        elif char in ">)":
            depth -= 1
    depth = 0
    for i in range(len(text) - 1, -1, -1):  # the return type ends at the last space outside brackets
        if text[i] in ">)":
            depth += 1
        elif text[i] in "<(":
            depth -= 1
        elif text[i] == " " and depth == 0:
            return function[i + 1:]
    return function


def is_owner(function):
    qualified = qualified_name(function)
    return qualified.startswith("durasim::") and not NOT_OWNERS.search(qualified)


def owners(callers):
    shares = {}  # function -> the owners of one of its calls: {(owner, via): fraction}

    def share_of(function, path):
        if function in shares:
            return shares[function]
        above = {c: n for c, n in callers.get(function, {}).items() if not TARGET.search(c)}
        if not above:
            result = {("(no function of durasim's above)", ""): 1.0}
        elif len(path) > DEPTH_MAX:
            return {(f"(deeper than {DEPTH_MAX} calls)", ""): 1.0}
        else:
            result = collections.Counter()
            total = sum(above.values())
            for caller, calls in above.items():
                weight = calls / total
                if is_owner(caller):
                    result[(caller, function)] += weight
                elif caller in path:
                    result[("(recursion)", "")] += weight
                else:
                    for owner, fraction in share_of(caller, path | {caller}).items():
                        result[owner] += weight * fraction
        shares[function] = result
        return result

    charged = collections.Counter()
    for target in [f for f in callers if TARGET.search(f)]:
        calls = sum(n for c, n in callers[target].items() if not TARGET.search(c))
        for owner, fraction in share_of(target, frozenset({target})).items():
            charged[owner] += calls * fraction
    return charged


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quietly, when piped into head
    if len(sys.argv) not in (2, 3):
        print("usage: bench/alloc_owners.py CALLGRIND_OUT [ROWS=40]", file=sys.stderr)
        sys.exit(2)
    rows = int(sys.argv[2]) if len(sys.argv) == 3 else 40
    charged = owners(call_graph(sys.argv[1]))
    total = sum(charged.values())
    print(f"{total:,.0f} allocations")
    for (owner, via), count in charged.most_common(rows):
        owner = owner.replace(STRING, "string")[:110]
        via = via.replace(STRING, "string")[:90]
        print(f"{count:10,.0f} {count / total:6.1%}  {owner}" + (f"  <- {via}" if via else ""))


if __name__ == "__main__":
    main()
