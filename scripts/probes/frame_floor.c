/*
 * frame_floor: the least a worker can do, for the floor under a worker's
 * start: write an empty frame to descriptor 4, then wait for the host to
 * close descriptor 3. Started the way the host starts a worker
 * (sandbox_start.c), it times the start itself: process, namespaces, pipes.
 */
#include <unistd.h>

int main(void) {
    unsigned char frame[4] = {0, 0, 0, 0};
    if (write(4, frame, sizeof frame) != (ssize_t)sizeof frame) return 1;
    char byte;
    while (read(3, &byte, 1) > 0) {}
    return 0;
}
