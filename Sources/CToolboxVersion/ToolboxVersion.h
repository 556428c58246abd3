// The toolbox's version, as scripts/version.sh works it out from packaging/deb/changelog.
// The build writes it to ToolboxVersion.generated.h (not in git) before it compiles; a plain
// `swift build` that skipped that step says so rather than claim a version.
#if __has_include("ToolboxVersion.generated.h")
#include "ToolboxVersion.generated.h"
#else
#define TOOLBOX_VERSION "0.0.0+unknown"
#endif
