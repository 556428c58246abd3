// Runs a command on a new terminal (a pty of 80x24) with KEYS already typed, reads everything
// it draws until it exits, and exits with its status: a screen's start, first frame and quit,
// timed by bench/interleave without `script`, whose own waits on its input's end are not the
// program's. Usage: pty-run KEYS COMMAND [ARGUMENT...]
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: pty-run KEYS COMMAND [ARGUMENT...]\n"); return 64; }
    struct winsize size = { .ws_row = 24, .ws_col = 80 };
    int master;
    pid_t pid = forkpty(&master, NULL, NULL, &size);
    if (pid < 0) { perror("forkpty"); return 71; }
    if (pid == 0) {
        setenv("TERM", "xterm", 1);
        execvp(argv[2], argv + 2);
        perror(argv[2]);
        _exit(127);
    }
    if (write(master, argv[1], strlen(argv[1])) < 0) { perror("write"); return 74; }
    char buffer[65536];
    while (read(master, buffer, sizeof buffer) > 0) {}  // EIO once the terminal has no one left
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
