#include "checkbase/TorchCheck.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "core/PerTU.h"
#include "analysis/RarePath.h"
#include "core/Recovery.h"
#include "model/HotBasis.h"
#include "model/LocalModel.h"
#include "model/ProjectIndex.h"
#include "model/TUSummary.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"
#include <atomic>
#include <mutex>

namespace torchlint {

namespace {

/// Project mode (issue 23, docs/project-model.md): what each check knows of the current TU and
/// match callback. Kept here, by check, so that the check bases' interface stays as it is.
struct ProjectState {
  bool ProjectMode = false;
  /// The project index's model (model/ProjectIndex.h) in the plugin and the language server: each
  /// finding is decided by it at once, as the CLI's project mode decides after the merge.
  const model::ProjectModel *Index = nullptr;
  bool InRun = false;
  /// The conditional answer hotContext() gave in the current match callback.
  std::optional<HotContext> CallbackConditional;
};

ProjectState &stateOf(const TorchCheck *C) {
  static thread_local llvm::DenseMap<const TorchCheck *, ProjectState> States;
  return States[C];
}

/// A conditional answer (hotContext() in project mode for code not hot in this TU): a function and
/// no reason; every answer of this TU has a reason.
bool isConditional(const HotContext &H) { return H.Why.empty() && H.Function; }

} // namespace

TorchCheck::TorchCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), Info(findCheck(Name)), TidyContext(Context) {
  if (!Info)
    llvm::report_fatal_error(llvm::Twine("torchlint: check ") + Name + " is not in rules/checks.json");
}

namespace {

std::atomic<bool> IndexLookup{true};

/// The project index for the TU of SM (the plugin and the server; the CLI builds its own model).
/// Its absence, or a broken one, is said once per process.
const model::ProjectModel *projectIndex(const clang::SourceManager &SM, llvm::StringRef Option, const void *Asker) {
  if (Option == "none" || !IndexLookup)
    return nullptr;
  std::optional<std::string> Path;
  if (!Option.empty()) {
    Path = Option.str();
  } else if (clang::OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getMainFileID())) {
    // Looked up once per TU, not once per check (findIndex walks the folders above the file).
    // The memo is the TU's while no check has asked twice: a check asking again is in the next
    // TU (whose SourceManager may sit at the same address), which looks again, so an index
    // written meanwhile (the language server's background index) is found.
    struct Memo {
      const clang::SourceManager *SM = nullptr;
      std::string File;
      std::optional<std::string> Path;
      llvm::SmallPtrSet<const void *, 32> Asked;
    };
    static thread_local Memo M;
    if (M.SM == &SM && M.File == FE->getName() && !M.Asked.count(Asker)) {
      M.Asked.insert(Asker);
      Path = M.Path;
    } else {
      M = Memo{&SM, FE->getName().str(), model::findIndex(FE->getName()), {}};
      M.Asked.insert(Asker);
      Path = M.Path;
    }
  }
  static std::once_flag Said;
  if (!Path) {
    std::call_once(Said, [] {
      llvm::errs() << "torchlint: note: no project index (`torchlint index -p BUILD` writes one); what runs on "
                      "every training step is decided from each file alone\n";
    });
    return nullptr;
  }
  std::string Err;
  const model::ProjectModel *M = model::loadIndex(*Path, Err);
  if (!M)
    std::call_once(Said, [&] {
      llvm::errs() << "torchlint: note: " << Err << "; what runs on every training step is decided from each "
                   << "file alone\n";
    });
  return M;
}

} // namespace

void setProjectIndexLookup(bool On) { IndexLookup = On; }

void TorchCheck::registerPPCallbacks(const clang::SourceManager &SM, clang::Preprocessor *P, clang::Preprocessor *) {
  PP = P;
  // A missing non-libtorch header does not end the analysis (Recovery.h); the global option
  // StrictIncludes (the CLI's --strict-includes) keeps it fatal.
  llvm::StringRef Strict = Options.getLocalOrGlobal("StrictIncludes", "false");
  llvm::StringRef Synth = Options.getLocalOrGlobal("Synthesis", "true"); // the CLI's --no-synthesis
  bool IsStrict = Strict.equals_insensitive("true") || Strict == "1";
  setUpIncludeRecovery(*P, IsStrict, !IsStrict && !Synth.equals_insensitive("false") && Synth != "0");
  // Project mode: the CLI with a compile database sets the global option ProjectModel.
  llvm::StringRef Project = Options.getLocalOrGlobal("ProjectModel", "false");
  ProjectState &St = stateOf(this);
  St = ProjectState{};
  St.ProjectMode = Project.equals_insensitive("true") || Project == "1";
  if (!St.ProjectMode) {
    St.Index = projectIndex(SM, Options.getLocalOrGlobal("ProjectIndex", ""), this);
    St.ProjectMode = St.Index != nullptr;
  }
}

void TorchCheck::run(const clang::ast_matchers::MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
  ProjectState &St = stateOf(this);
  St.CallbackConditional.reset();
  St.InRun = true;
  check(Result);
  St.InRun = false;
  St.CallbackConditional.reset();
}

namespace {

/// The CUDA device code of a .cu file's user code (__global__ functions and __device__ functions
/// that are not also __host__): the host-only parse types it, but it never runs on the host, so
/// torchlint does not judge it (cli/CudaHost.h). Empty outside CUDA.
struct DeviceCode {
  std::vector<clang::SourceRange> Ranges;
  explicit DeviceCode(clang::ASTContext &Ctx) {
    if (Ctx.getLangOpts().CUDA)
      collect(Ctx.getSourceManager(), Ctx.getTranslationUnitDecl());
  }
  void collect(const clang::SourceManager &SM, const clang::DeclContext *DC) {
    for (const clang::Decl *D : DC->noload_decls()) {
      if (D->getLocation().isValid() && SM.isInSystemHeader(D->getLocation()))
        continue;
      if (const auto *T = llvm::dyn_cast<clang::FunctionTemplateDecl>(D))
        D = T->getTemplatedDecl();
      if (const auto *F = llvm::dyn_cast<clang::FunctionDecl>(D)) {
        if (F->hasAttr<clang::CUDAGlobalAttr>() ||
            (F->hasAttr<clang::CUDADeviceAttr>() && !F->hasAttr<clang::CUDAHostAttr>()))
          Ranges.push_back(F->getSourceRange());
      } else if (llvm::isa<clang::NamespaceDecl, clang::CXXRecordDecl, clang::LinkageSpecDecl>(D)) {
        collect(SM, llvm::cast<clang::DeclContext>(D));
      }
    }
  }
  bool contains(const clang::SourceManager &SM, clang::SourceLocation Loc) const {
    Loc = SM.getExpansionLoc(Loc);
    for (clang::SourceRange R : Ranges) {
      clang::SourceLocation B = SM.getExpansionLoc(R.getBegin()), E = SM.getExpansionLoc(R.getEnd());
      if (!SM.isBeforeInTranslationUnit(Loc, B) && !SM.isBeforeInTranslationUnit(E, Loc))
        return true;
    }
    return false;
  }
};

} // namespace

bool TorchCheck::dropped(clang::SourceLocation Loc) const {
  if (PP && isLibraryLocation(PP->getSourceManager(), Loc))
    return true;
  if (!Ctx)
    return false;
  if (Ctx->getLangOpts().CUDA && perTU<DeviceCode>(*Ctx).contains(Ctx->getSourceManager(), Loc))
    return true;
  if (restsOnErrors(*Ctx, Loc))
    return true;
  Evidence E = evidence();
  return E != Evidence::Expression && scopeHasErrors(*Ctx, Loc, E == Evidence::TranslationUnit);
}

bool TorchCheck::isCheckEnabled(llvm::StringRef Name) const { return TidyContext && TidyContext->isCheckEnabled(Name); }

TorchVersion TorchCheck::torchVersion() const { return PP ? readTorchVersion(*PP) : TorchVersion{}; }

std::optional<HotContext> TorchCheck::hotContext(const clang::Stmt *S, clang::ASTContext &Ctx) const {
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  std::optional<HotContext> H = HC.whyHot(S);
  ProjectState &St = stateOf(this);
  // A per-call cost under a logging branch, here or (one file alone) through every call of its
  // function: paid once per interval (CheckInfo::costsPerCall). With the project model, the model
  // decides the calls across files (ProjectModel::resolve).
  if (H && S && Info && Info->costsPerCall()) {
    if (St.ProjectMode ? localRarePath(S, Ctx).has_value() : rarePath(S, Ctx).has_value())
      return std::nullopt;
    if (!St.ProjectMode)
      if (const clang::FunctionDecl *F = HC.enclosingFunction(S); F && model::LocalModel::get(Ctx).rareOnly(model::usrOf(F)))
        return std::nullopt;
  }
  if (H && St.ProjectMode) {
    H->InLoop = HC.enclosingLoop(S) != nullptr;
    if (S)
      H->UnlessNullArgs = nonNullGuards(S, Ctx);
  }
  // Per-file mode: the model of this TU alone (model/LocalModel.h) says when code of a file that
  // trains runs once per run or epoch, outside the step (loading images before training, testing
  // after it).
  if (H && !St.ProjectMode && S) {
    const model::LocalModel &LM = model::LocalModel::get(Ctx);
    const clang::FunctionDecl *F = LM.notPerStep().empty() ? nullptr : HC.enclosingFunction(S);
    if (F) {
      std::optional<model::Position> Loop;
      if (const clang::Stmt *L = HC.enclosingLoop(S))
        Loop = model::positionOf(Ctx.getSourceManager(), L->getBeginLoc());
      if (LM.outsideTraining(model::usrOf(F), Loop))
        return std::nullopt;
    }
  }
  if (H || !St.ProjectMode || !S || HC.inTestBody(S))
    return H;
  // Not hot in this TU, but its function may run per step in the project: the check goes on, and
  // report() makes the finding conditional on the function (model/HotBasis.h).
  const clang::FunctionDecl *F = HC.enclosingFunction(S);
  if (!F || !inUserCode(F->getLocation(), Ctx.getSourceManager()))
    return H;
  H.emplace();
  H->Function = F;
  H->InLoop = HC.enclosingLoop(S) != nullptr;
  H->UnlessNullArgs = nonNullGuards(S, Ctx);
  if (St.InRun && !St.CallbackConditional)
    St.CallbackConditional = H;
  return H;
}

bool TorchCheck::callChainRestsOnErrors(const clang::Stmt *S, clang::ASTContext &Ctx) const {
  if (!S || !Ctx.getDiagnostics().hasErrorOccurred())
    return false;
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  const clang::FunctionDecl *F = HC.enclosingFunction(S);
  if (!F)
    return functionHasRealErrors(Ctx, S->getBeginLoc());
  // The function holding S: errors anywhere in it count. Its callers: only errors that could
  // cover the call (a guard declared before it in a block around it: errorsCouldCover), not
  // errors in an earlier branch or loop of the caller (OpenSpiel's episode loop).
  if (const clang::FunctionDecl *Def = F->getDefinition();
      Def && Def->getBody() && functionHasRealErrors(Ctx, Def->getBody()->getBeginLoc()))
    return true;
  llvm::SmallPtrSet<const clang::FunctionDecl *, 16> Seen;
  std::vector<const clang::FunctionDecl *> Work{F};
  std::vector<std::string> Names;
  while (!Work.empty()) {
    const clang::FunctionDecl *G = Work.back();
    Work.pop_back();
    if (!Seen.insert(G->getCanonicalDecl()).second)
      continue;
    // The name code could call it by: a function's, or a constructor's class; an operator (a
    // lambda's call operator, operator()) is called without its name: any error may hide a call.
    const clang::NamedDecl *Named = G;
    if (const auto *Ctor = llvm::dyn_cast<clang::CXXConstructorDecl>(G))
      Named = Ctor->getParent();
    if (!Named->getDeclName().isIdentifier())
      return scopeHasErrors(Ctx, S->getBeginLoc(), /*WholeTU=*/true);
    Names.push_back(Named->getName().str());
    for (const clang::Expr *Call : HC.callsOf(G))
      if (const clang::FunctionDecl *Caller = HC.enclosingFunction(Call)) {
        if (errorsCouldCover(Ctx, Call))
          return true;
        Work.push_back(Caller);
      }
  }
  return erroneousCodeNames(Ctx, Names);
}

bool TorchCheck::hostConfirmedHere(HostAssumptions If, HotContext &Hot, clang::ASTContext &Ctx) const {
  if (!projectMode() && model::LocalModel::get(Ctx).hostInThisFile(If, Ctx))
    return true;
  Hot.HostIf = std::move(If);
  return false;
}

bool TorchCheck::projectMode() const { return stateOf(this).ProjectMode; }

bool TorchCheck::inUserCode(clang::SourceLocation Loc, const clang::SourceManager &SM) const {
  if (Loc.isInvalid())
    return false;
  return !isLibraryLocation(SM, Loc);
}

clang::DiagnosticBuilder TorchCheck::report(clang::SourceLocation Loc, llvm::StringRef Message,
                                            const std::optional<HotContext> &Hot, clang::DiagnosticIDs::Level Level) {
  std::string Text = Message.str();
  const ProjectState &St = stateOf(this);
  if (St.ProjectMode && (Hot || (St.InRun && St.CallbackConditional))) {
    // The project model decides (model/HotBasis.h): the reason is appended when it is resolved.
    const HotContext &H = Hot ? *Hot : *St.CallbackConditional;
    model::HotBasis B;
    B.FunctionUSR = model::usrOf(H.Function);
    if (isConditional(H)) {
      B.K = model::HotBasis::Conditional;
    } else if (H.LoopLoc.isValid() && Ctx) {
      B.K = model::HotBasis::Loop;
      model::Position P = model::positionOf(Ctx->getSourceManager(), H.LoopLoc);
      B.File = P.File;
      B.Line = P.Line;
      B.Column = P.Column;
    } else {
      B.K = model::HotBasis::Function;
    }
    B.Why = H.Why;
    B.IfProjectUsesCUDA = H.IfProjectUsesCUDA;
    B.IfProgramUsesCUDA = H.IfProgramUsesCUDA;
    B.InLoop = B.K == model::HotBasis::Loop || H.InLoop;
    B.HostIfFields = model::hostKeys(H.HostIf);
    for (const clang::NamedDecl *D : H.IfWidenedHost) {
      std::string U = model::usrOf(D);
      B.IfWidenedHost.push_back(U.empty() ? "?" : U); // "?": never confirmed
    }
    for (auto [Get, Element] : H.IfWidenedExample) {
      std::string K = model::exampleKey(Get, Element);
      B.IfWidenedHost.push_back(K.empty() ? "?" : K); // "?": never confirmed
    }
    for (const clang::ParmVarDecl *PV : H.IfConstantArgs) {
      std::string K = model::paramKey(PV);
      B.IfConstantArgs.push_back(K.empty() ? "?" : K); // "?": never confirmed
    }
    for (const clang::ParmVarDecl *PV : H.UnlessNullArgs)
      if (std::string K = model::paramKey(PV); !K.empty())
        B.UnlessNullArgs.push_back(K);
    Text += model::encodeBasis(B);
  } else if (Hot) {
    Text += " (" + Hot->Why + ")";
  }
  return emit(Loc, std::move(Text), Level);
}

clang::DiagnosticBuilder TorchCheck::reportForProject(clang::SourceLocation Loc, llvm::StringRef Message,
                                                      const model::HotBasis &B, clang::DiagnosticIDs::Level Level) {
  if (!stateOf(this).ProjectMode)
    return report(Loc, Message, std::nullopt, Level);
  model::HotBasis P = B;
  P.K = model::HotBasis::Project;
  return emit(Loc, Message.str() + model::encodeBasis(P), Level);
}

clang::DiagnosticBuilder TorchCheck::emit(clang::SourceLocation Loc, std::string Text,
                                          clang::DiagnosticIDs::Level Level) {
  const ProjectState &St = stateOf(this);
  if (St.Index && Text.find(model::BasisMarker) != std::string::npos) {
    // Decided now by the project index, as the CLI decides after the merge.
    Finding F;
    F.Check = Info->Name.str();
    F.Message = Text;
    F.Level = Level == clang::DiagnosticIDs::Remark ? "remark" : "warning";
    bool Keep = St.Index->resolve(F);
    Text = F.Message;
    if (!Keep)
      Level = clang::DiagnosticIDs::Ignored;
    else if (F.Level == "remark")
      Level = clang::DiagnosticIDs::Remark;
  }
  // clang's diagnostic formatter treats '%' specially.
  std::string Escaped;
  for (char C : Text) {
    Escaped += C;
    if (C == '%')
      Escaped += '%';
  }
  // An ignored diagnostic: the builder takes fix-its as usual, and clang drops it and the notes
  // that follow it.
  return diag(Loc, Escaped, dropped(Loc) ? clang::DiagnosticIDs::Ignored : Level);
}

} // namespace torchlint
