# Run a command on a terminal of its own (a pseudo-terminal), and hang that terminal up when a line
# arrives on standard input, as closing a terminal window or losing an SSH session does. Prints the
# command's exit status (128 + n for a signal, as a shell says it).
import os, pty, select, sys, threading

pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])

stop = threading.Event()

def drain():
    # Read what the command writes to its terminal, so its writes never block on a full buffer.
    while not stop.is_set():
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                if not os.read(fd, 65536):
                    return
            except OSError:
                return

reader = threading.Thread(target=drain)
reader.start()
sys.stdin.readline()
stop.set()
reader.join()
# The last reference to the terminal's master side: the kernel hangs the terminal up (SIGHUP).
os.close(fd)
_, status = os.waitpid(pid, 0)
print(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status), flush=True)
