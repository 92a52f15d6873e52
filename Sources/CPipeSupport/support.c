#include "CPipeSupport.h"

static __thread void *current_driver = 0;

void *pipe_current_driver(void) { return current_driver; }

void pipe_set_current_driver(void *driver) { current_driver = driver; }
