// What a finding's "runs on every step" rests on, carried with the finding from the TU that made it
// to the project model that decides (issue 23). In project mode (the CLI with a compile database),
// TorchCheck::report() appends it to the message after a separator the user never sees: the kind
// (Loop: hot in this TU because of the loop at File:Line:Column; Function: hot in this TU because
// the function is called from a loop or forward(); Conditional: not hot in this TU, reported only
// if the function runs per step in the project), the function's USR and this TU's reason. The CLI
// strips it when it resolves the finding against the merged model (ProjectModel.h resolve()).
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace torchlint::model {

struct HotBasis {
  /// Project: the finding does not rest on code being hot but on facts of other files, which the
  /// model checks (ProgramNeeds, IfNoGradients); File:Line is then the main() whose program it is
  /// about (ProgramNeeds), and Why the message to report when the model knows no such main() (the
  /// TU's own answer; empty: not reported).
  enum Kind : char { Loop = 'L', Function = 'F', Conditional = 'C', Project = 'P' };
  Kind K = Conditional;
  std::string FunctionUSR;
  std::string File; // the loop's (Loop)
  unsigned Line = 0, Column = 0;
  std::string Why; // this TU's reason (Loop, Function)
  /// Keys of fields, parameters and return values (TUSummary.h hostKeys): the finding holds only if
  /// one of them can hold a device tensor (HotContext::HostIf); the model drops it when every
  /// write of each stores host tensors.
  std::vector<std::string> HostIfFields;
  /// The finding holds only if the program uses CUDA (HotContext::IfProjectUsesCUDA).
  bool IfProjectUsesCUDA = false;
  /// The finding holds only if no program runs the function, or one that does may use CUDA
  /// (HotContext::IfProgramUsesCUDA; ProjectModel::programsReachingMayUseCUDA).
  bool IfProgramUsesCUDA = false;
  /// USRs of user functions and fields: the finding holds only if every one of them yields only
  /// tensors widened on the host from one narrow dtype (HotContext::IfWidenedHost; the project
  /// model's tensor flows, ProjectModel::widenedHost); the model fills in the placeholders below.
  std::vector<std::string> IfWidenedHost;
  /// The site is inside a loop of its own function (always for Loop): reached through a logging
  /// branch, it runs more than once per interval (ProjectModel::resolve).
  bool InLoop = false;
  /// Project: facts the program of the main() at File:Line must have (a fact name: "conv",
  /// "cuda", "trains", "cudnn"), or must lack ("!cudnn"); ProjectModel::programFacts. The model
  /// fills in the Program* placeholders below.
  std::vector<std::string> ProgramNeeds;
  /// USRs of user functions defined in other files: the finding holds only if none of them needs
  /// gradients in the project (ProjectModel::needsGradients).
  std::vector<std::string> IfNoGradients;
  /// Parameter keys (TUSummary.h paramKey): the finding holds only if every call of each one's
  /// function in the project passes a compile-time constant there (HotContext::IfConstantArgs;
  /// ProjectModel::constantAtEveryCall).
  std::vector<std::string> IfConstantArgs;
  /// Parameter keys: the finding is dropped when every call of one's function in the project
  /// passes a null pointer there (HotContext::UnlessNullArgs; ProjectModel::nullAtEveryCall).
  std::vector<std::string> UnlessNullArgs;
};

/// Placeholders in the message of a finding with IfWidenedHost, replaced when the model resolves
/// it: WidenedWhat by "the float32 tensor from Camera::getImage() (input_data.cpp) was converted
/// from uint8 on the host (in imageToTensor(), cv_utils.cpp:48)", WidenedFrom by "uint8",
/// WidenedFactor by "4".
constexpr const char *WidenedWhat = "\x1c" "what" "\x1c";
constexpr const char *WidenedFrom = "\x1c" "from" "\x1c";
constexpr const char *WidenedFactor = "\x1c" "factor" "\x1c";

/// Placeholders in the message of a finding with ProgramNeeds: ProgramConvName by what the program
/// builds ("Conv2d", "torch::conv2d()"), the *At ones by where the fact is: "line 12" in the file
/// of main(), "model.cpp:12" in another file.
constexpr const char *ProgramConvName = "\x1c" "conv-name" "\x1c";
constexpr const char *ProgramConvAt = "\x1c" "conv-at" "\x1c";
constexpr const char *ProgramCudaAt = "\x1c" "cuda-at" "\x1c";
constexpr const char *ProgramTrainsAt = "\x1c" "trains-at" "\x1c";

/// The separator between a message and its basis.
constexpr char BasisMarker = '\x1f';

/// "<marker>torchlint-hot<sep>K<sep>USR<sep>file<sep>line<sep>col<sep>why<sep>cuda<sep>fields<sep>widened<sep>inloop
/// <sep>program<sep>nograd<sep>programcuda<sep>constargs" (cuda, inloop, programcuda: "1" or ""; the field USRs,
/// the widened USRs, the program facts, the no-gradient USRs and the constant-argument keys, each joined by
/// \x1d).
std::string encodeBasis(const HotBasis &B);
/// Splits Message into its text and its basis; nullopt (Message unchanged) when it has none.
std::optional<HotBasis> takeBasis(std::string &Message);

} // namespace torchlint::model
