# Run a command on a terminal of its own (a pseudo-terminal), type standard input's text at it, and
# copy what it writes to standard output. Exits with the command's exit status.
import os, pty, sys

pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])

os.write(fd, sys.stdin.read().encode())
while True:
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        break
    if not chunk:
        break
    sys.stdout.buffer.write(chunk)
    sys.stdout.flush()
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)
