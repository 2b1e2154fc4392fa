#pragma once
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-channels-last: a 2-D convolutional model on CUDA never converted to channels_last.
/// docs/checks/torch-channels-last.md
class ChannelsLastCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  /// What a finding rests on beyond its expression: a file-wide absence: never converted to channels-last (Recovery.h).
  Evidence evidence() const override { return Evidence::TranslationUnit; }
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  clang::SourceLocation FirstConv; // the earliest 2-D convolution built in user code
  std::string ConvName;
  clang::ASTContext *Ctx = nullptr;
};

} // namespace torchlint
