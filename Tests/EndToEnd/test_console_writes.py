"""Every line a command writes goes through RefrainCore's `Console`, which cleans it with the
one `TerminalSanitizer` (issue 35): no Swift file writes to standard output or standard
error another way. The screen is drawn by curses (and pictures by RefrainTUI's `Terminal`),
which clean through the screen grid; the benchmark tool is not shipped."""

from __future__ import annotations

import re

from test_one_owner_code import ROOT, SOURCES, swift_files, uses

# Writes to the two streams that bypass Console: print, FileHandle's standard streams (not a
# child process's, `process.standardOutput = …`), fputs/fwrite/putchar to stdout or stderr,
# write(2) on descriptor 1 or 2, and FileHandle(fileDescriptor: 1 or 2).
DIRECT = (r"(?<![\w.])print\(|(?<![\w.])(debugPrint|dump)\(|FileHandle\.standard(Output|Error)\.write"
          r"|\b(fputs|fwrite|fprintf|putchar|puts)\(.*\b(stdout|stderr)\b"
          r"|(?<![\w.])write\((STDOUT_FILENO|STDERR_FILENO|1|2)\s*,"
          r"|FileHandle\(fileDescriptor:\s*(1|2|STDOUT_FILENO|STDERR_FILENO)\b")

ALLOWED = {
    SOURCES / "RefrainCore" / "Text" / "Console.swift",        # the one place
    SOURCES / "RefrainTUI" / "Terminal" / "Terminal.swift",    # the screen, drawn from the grid
}


def test_no_swift_file_writes_to_stdout_or_stderr_but_console():
    files = [path for path in swift_files()
             if path not in ALLOWED and "RefrainBench" not in path.parts]
    assert uses(DIRECT, files) == []


def test_the_pattern_catches_each_way_of_writing():
    for line in ('print("x")', 'FileHandle.standardError.write(data)', 'fputs(text, stderr)',
                 'write(STDOUT_FILENO, p, n)', 'FileHandle(fileDescriptor: 2)', 'debugPrint(x)'):
        assert re.search(DIRECT, line), line
    for line in ('Console.line("x")', 'process.standardOutput = pipe', 'Console.error(x)',
                 'handle.write(data)', 'blueprint(x)'):
        assert not re.search(DIRECT, line), line
    assert (ROOT / "Sources" / "RefrainCore" / "Text" / "Console.swift").exists()
