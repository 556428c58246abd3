// Times commands interleaved: each round runs every command once, in a shuffled order (fixed
// seed), so that a slow stretch of a noisy machine falls on all of them alike. hyperfine runs
// each command's runs in one block, and on a shared VM two blocks of the same binary can differ
// by half. Prints "median_ms<TAB>command" per command, in the order given.
// Usage: interleave ROUNDS 'command with words' ... (words split on spaces; stdout to /dev/null)
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

static int ascending(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: interleave ROUNDS COMMAND...\n"); return 64; }
    int rounds = atoi(argv[1]), count = argc - 2, warmup = 10;
    if (rounds < 1) { fprintf(stderr, "interleave: ROUNDS must be a positive number\n"); return 64; }
    char ***words = calloc(count, sizeof *words);
    double **times = calloc(count, sizeof *times);
    for (int i = 0; i < count; i++) {
        char *line = strdup(argv[i + 2]);
        words[i] = calloc(strlen(line) / 2 + 2, sizeof **words);
        int n = 0;
        for (char *word = strtok(line, " "); word; word = strtok(NULL, " ")) words[i][n++] = word;
        times[i] = calloc(rounds, sizeof **times);
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    int *order = calloc(count, sizeof *order);
    srand(1);
    for (int round = 0; round < warmup + rounds; round++) {
        for (int i = 0; i < count; i++) order[i] = i;
        for (int i = count - 1; i > 0; i--) { int j = rand() % (i + 1), k = order[i]; order[i] = order[j]; order[j] = k; }
        for (int o = 0; o < count; o++) {
            int i = order[o], status;
            pid_t pid;
            struct timespec start, end;
            clock_gettime(CLOCK_MONOTONIC, &start);
            if (posix_spawnp(&pid, words[i][0], &actions, NULL, words[i], environ) != 0) { perror(words[i][0]); return 1; }
            waitpid(pid, &status, 0);
            clock_gettime(CLOCK_MONOTONIC, &end);
            // A command that fails is timed doing something else: no figure for it.
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) { fprintf(stderr, "interleave: %s failed\n", argv[i + 2]); return 1; }
            if (round >= warmup) times[i][round - warmup] = (end.tv_sec - start.tv_sec) * 1e3 + (end.tv_nsec - start.tv_nsec) / 1e6;
        }
    }
    for (int i = 0; i < count; i++) {
        qsort(times[i], rounds, sizeof **times, ascending);
        printf("%.3f\t%s\n", times[i][rounds / 2], argv[i + 2]);
    }
    return 0;
}
