#!/usr/bin/env python3
"""Key → first redraw byte, measured in a real pty.

Starts `ome-top` (by default `--snapshot tests/fixtures/k8s/ir-example-6.json`: an offline
snapshot, so no feed churn wakes the loop) in a pseudo-terminal of the given size, waits until
the screen is quiet, then presses keys one at a time after a random idle spell (0–1.2 s, so the
key lands anywhere between two of the loop's 1 s ticks) and records the time from the write of
the key to the first byte the program writes back. Prints the median, p90 and max in ms.

    python3 benches/pty/key_latency.py [--bin target/release/ome-top] [--keys 40] [-- ARGS…]
"""
import argparse
import fcntl
import os
import pty
import random
import select
import signal
import statistics
import struct
import sys
import tempfile
import termios
import time


def drain(fd, quiet):
    """Reads until nothing arrives for `quiet` seconds."""
    while True:
        r, _, _ = select.select([fd], [], [], quiet)
        if not r:
            return
        try:
            if not os.read(fd, 65536):
                return
        except OSError:
            return


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bin", default="target/release/ome-top")
    p.add_argument("--keys", type=int, default=40)
    p.add_argument("--size", default="120x40")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("args", nargs="*")
    a = p.parse_args()
    args = a.args or ["--snapshot", "tests/fixtures/k8s/ir-example-6.json"]
    cols, rows = (int(x) for x in a.size.split("x"))
    home = tempfile.mkdtemp(prefix="ome-top-latency-")
    env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=f"{home}/config",
               XDG_STATE_HOME=f"{home}/state", XDG_DATA_HOME=f"{home}/data", TERM="xterm-256color")
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(a.bin, [a.bin, *args], env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    os.kill(pid, signal.SIGWINCH)
    drain(fd, 2.0)
    rng = random.Random(a.seed)
    samples = []
    for i in range(a.keys):
        time.sleep(rng.uniform(0.0, 1.2))
        drain(fd, 0.0)
        key = b"j" if i % 2 == 0 else b"k"
        t0 = time.monotonic()
        os.write(fd, key)
        r, _, _ = select.select([fd], [], [], 3.0)
        if not r:
            print(f"key {i}: no redraw within 3 s", file=sys.stderr)
            continue
        samples.append((time.monotonic() - t0) * 1000.0)
        drain(fd, 0.15)
    os.write(fd, b"q")
    drain(fd, 1.0)
    os.waitpid(pid, 0)
    if not samples:
        print("no samples")
        return 1
    samples.sort()
    p90 = samples[min(len(samples) - 1, int(len(samples) * 0.9))]
    print(f"{len(samples)} keys: median {statistics.median(samples):.1f} ms, "
          f"p90 {p90:.1f} ms, max {samples[-1]:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
