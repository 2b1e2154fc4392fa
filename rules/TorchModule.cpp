// The one clang-tidy module that registers every torchlint check. The CLI links it statically;
// the plugin (torchlint-tidy-plugin.so) registers it inside clang-tidy-19.
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"

// Generated from rules/checks.json (cmake/Catalog.cmake); needs the module headers above.
#include "RegisterChecks.inc"

namespace torchlint {

class TorchModule : public clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override { registerAllChecks(Factories); }
};

} // namespace torchlint

static clang::tidy::ClangTidyModuleRegistry::Add<torchlint::TorchModule>
    TorchModuleRegistration("torchlint-module", "torchlint: libtorch performance checks");

// Referenced by the CLI so the static registration above is always linked in.
volatile int TorchlintModuleAnchorSource = 0;
