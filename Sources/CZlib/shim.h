// zlib, for blogctl's gzip-format post cache.
#include <zlib.h>
