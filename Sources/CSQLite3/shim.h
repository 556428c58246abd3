// The system's SQLite (Debian's libsqlite3, built with FTS5), for blogctl's search index.
#include <sqlite3.h>
