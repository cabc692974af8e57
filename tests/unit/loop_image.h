/*
 * Test helper shared by the unit tests that need a real block device: a
 * scratch image in /tmp attached to a free loop device, and its removal by
 * name. Root only; without root (or losetup) the caller gets the reason and
 * skips its loop-device cases.
 */
#ifndef PL_TEST_LOOP_IMAGE_H
#define PL_TEST_LOOP_IMAGE_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

struct loop_image {
    char img[4096]; /* the image file, "" if none */
    char dev[64];   /* "/dev/loopN", "" if none */
    char why[256];  /* why there is no loop device */
};

/*
 * Make an image of `bytes` from the mkstemp template `tmpl`, let prepare(fd,
 * bytes) write into it (NULL: leave it zero), and attach it (with a partition
 * scan when `partscan`). 0, or -1 with l->why set.
 */
static int loop_image_attach(struct loop_image *l, const char *tmpl, off_t bytes,
                             int (*prepare)(int fd, off_t bytes), int partscan)
{
    char cmd[sizeof l->img + 64], out[64];
    FILE *p;
    int fd, status;

    memset(l, 0, sizeof *l);
    if (geteuid() != 0) {
        snprintf(l->why, sizeof l->why, "not root (euid %u)", (unsigned)geteuid());
        return -1;
    }
    snprintf(l->img, sizeof l->img, "%s", tmpl);
    fd = mkstemp(l->img);
    if (fd < 0) {
        snprintf(l->why, sizeof l->why, "mkstemp %s: %s", tmpl, strerror(errno));
        l->img[0] = '\0';
        return -1;
    }
    if (ftruncate(fd, bytes) < 0 || (prepare && prepare(fd, bytes) < 0)) {
        snprintf(l->why, sizeof l->why, "cannot build image: %s", strerror(errno));
        close(fd);
        return -1;
    }
    close(fd);
    snprintf(cmd, sizeof cmd, "losetup -f --show %s'%s' 2>&1", partscan ? "-P " : "", l->img);
    p = popen(cmd, "r");
    if (p == NULL) {
        snprintf(l->why, sizeof l->why, "popen losetup: %s", strerror(errno));
        return -1;
    }
    if (fgets(out, sizeof out, p) == NULL)
        out[0] = '\0';
    status = pclose(p);
    out[strcspn(out, "\n")] = '\0';
    if (status != 0 || strncmp(out, "/dev/loop", 9) != 0) {
        snprintf(l->why, sizeof l->why, "losetup failed: %s", out);
        return -1;
    }
    snprintf(l->dev, sizeof l->dev, "%s", out);
    return 0;
}

/* Detach the loop device and remove the image, each by its name. */
static void loop_image_remove(struct loop_image *l)
{
    if (l->dev[0]) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "losetup -d '%s'", l->dev);
        if (system(cmd) != 0)
            fprintf(stderr, "warning: could not detach %s\n", l->dev);
        l->dev[0] = '\0';
    }
    if (l->img[0]) {
        unlink(l->img);
        l->img[0] = '\0';
    }
}

#endif
