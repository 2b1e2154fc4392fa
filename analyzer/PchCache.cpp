#include "PchCache.h"
#include "JsonFile.h"
#include "Recovery.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/TextDiagnosticBuffer.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/LockFileManager.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace llvm;

namespace torchlint {

std::vector<std::string> leadingSystemIncludes(StringRef S) {
  std::vector<std::string> Out;
  size_t I = S.starts_with("\xEF\xBB\xBF") ? 3 : 0, N = S.size();
  auto LineEnd = [&](size_t From) {
    size_t E = S.find('\n', From);
    return E == StringRef::npos ? N : E;
  };
  while (I < N) {
    char C = S[I];
    if (C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\f' || C == '\v') {
      ++I;
      continue;
    }
    StringRef Rest = S.substr(I);
    if (Rest.starts_with("//")) {
      size_t E = LineEnd(I);
      if (S.slice(I, E).rtrim("\r").ends_with("\\")) // continued onto the next line
        break;
      I = E;
      continue;
    }
    if (Rest.starts_with("/*")) {
      size_t E = S.find("*/", I + 2);
      if (E == StringRef::npos)
        break;
      I = E + 2;
      continue;
    }
    if (C != '#')
      break;
    size_t E = LineEnd(I);
    StringRef Line = S.slice(I, E).rtrim("\r");
    if (Line.ends_with("\\") || Line.contains("/*") || Line.contains("??"))
      break;
    StringRef R = Line.drop_front(1).ltrim(" \t");
    if (!R.consume_front("include"))
      break;
    if (R.empty() || (R[0] != ' ' && R[0] != '\t' && R[0] != '<')) // #include_next, #includefoo
      break;
    R = R.ltrim(" \t");
    if (!R.consume_front("<"))
      break;
    size_t G = R.find('>');
    if (G == StringRef::npos || G == 0)
      break;
    StringRef Name = R.substr(0, G), After = R.substr(G + 1).trim(" \t");
    if (!After.empty() && !After.starts_with("//"))
      break;
    Out.push_back(Name.str());
    I = E;
  }
  return Out;
}

namespace {

struct Dep {
  std::string Path;
  int64_t Size = 0, MTime = 0;
};

struct Manifest {
  std::string Status; // ok, none, truncate
  unsigned Keep = 0;
  std::string Why;
  std::vector<Dep> Deps;
};

bool readManifest(StringRef Path, Manifest &M) {
  std::optional<json::Value> V = readJsonFile(Path);
  if (!V)
    return false;
  const json::Object *O = V->getAsObject();
  if (!O)
    return false;
  if (auto S = O->getString("status"))
    M.Status = S->str();
  if (auto K = O->getInteger("keep"))
    M.Keep = static_cast<unsigned>(*K);
  if (auto W = O->getString("why"))
    M.Why = W->str();
  if (const json::Array *A = O->getArray("deps"))
    for (const json::Value &D : *A)
      if (const json::Array *T = D.getAsArray(); T && T->size() == 3) {
        Dep X;
        if (auto P = (*T)[0].getAsString())
          X.Path = P->str();
        X.Size = (*T)[1].getAsInteger().value_or(-1);
        X.MTime = (*T)[2].getAsInteger().value_or(-1);
        M.Deps.push_back(std::move(X));
      }
  return !M.Status.empty();
}

bool writeFileAtomically(StringRef Path, StringRef Text) {
  SmallString<256> Tmp(Path);
  Tmp += ".tmp" + std::to_string(sys::Process::getProcessId());
  {
    std::error_code EC;
    raw_fd_ostream OS(Tmp, EC);
    if (EC)
      return false;
    OS << Text;
  }
  return !sys::fs::rename(Tmp, Path);
}

void writeManifest(StringRef Path, const Manifest &M) {
  json::Array Deps;
  for (const Dep &D : M.Deps)
    Deps.push_back(json::Array{D.Path, D.Size, D.MTime});
  json::Object O{{"status", M.Status}, {"keep", M.Keep}, {"why", M.Why}, {"deps", std::move(Deps)}};
  std::string S;
  raw_string_ostream OS(S);
  OS << json::Value(std::move(O));
  writeFileAtomically(Path, OS.str());
}

/// Every file the PCH was built from still has the size and modification time it had (what clang
/// itself checks when it loads a PCH).
bool depsUnchanged(const Manifest &M) {
  for (const Dep &D : M.Deps) {
    sys::fs::file_status St;
    if (sys::fs::status(D.Path, St) || static_cast<int64_t>(St.getSize()) != D.Size ||
        static_cast<int64_t>(sys::toTimeT(St.getLastModificationTime())) != D.MTime)
      return false;
  }
  return true;
}

/// Watches the block's includes while the PCH is built: which file each one entered, and whether
/// it (or anything it included) is a non-system file.
struct BlockWatcher : PPCallbacks {
  explicit BlockWatcher(SourceManager &SM) : SM(SM) {}
  void InclusionDirective(SourceLocation HashLoc, const Token &, StringRef, bool, CharSourceRange,
                          OptionalFileEntryRef File, StringRef, StringRef, const Module *, bool,
                          SrcMgr::CharacteristicKind FileType) override {
    if (!SM.isWrittenInMainFile(HashLoc))
      return;
    Direct.push_back(File);
    Bad.push_back(!File || userFile(File->getName(), FileType));
    Current = static_cast<int>(Direct.size()) - 1;
  }
  bool FileNotFound(StringRef) override {
    if (FirstMissing < 0) // a header missing in (or under) direct include Current
      FirstMissing = Current < 0 ? 0 : Current;
    return false;
  }
  /// The user's own file (libtorch's headers are not, even when included with -I).
  static bool userFile(StringRef Name, SrcMgr::CharacteristicKind FileType) {
    return FileType == SrcMgr::C_User && !isLibtorchFile(Name);
  }
  void FileChanged(SourceLocation Loc, FileChangeReason Reason, SrcMgr::CharacteristicKind FileType,
                   FileID) override {
    if (Reason != EnterFile || Current < 0)
      return;
    FileID F = SM.getFileID(Loc);
    if (F == SM.getMainFileID() || !SM.getFileEntryRefForID(F))
      return;
    if (OptionalFileEntryRef FE = SM.getFileEntryRefForID(F); FE && userFile(FE->getName(), FileType))
      Bad[Current] = true;
  }
  SourceManager &SM;
  std::vector<OptionalFileEntryRef> Direct;
  std::vector<bool> Bad;
  int Current = -1;
  /// The direct include under which a header was missing, or -1.
  int FirstMissing = -1;
};

class BlockPchAction : public GeneratePCHAction {
public:
  size_t Count = 0, Good = 0;
  int FirstMissing = -1;
  std::vector<Dep> Deps;
  std::string Block;

protected:
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    auto W = std::make_unique<BlockWatcher>(CI.getSourceManager());
    Watcher = W.get();
    CI.getPreprocessor().addPPCallbacks(std::move(W));
    return GeneratePCHAction::BeginSourceFileAction(CI);
  }
  void EndSourceFileAction() override {
    CompilerInstance &CI = getCompilerInstance();
    HeaderSearch &HS = CI.getPreprocessor().getHeaderSearchInfo();
    Count = Watcher->Direct.size();
    FirstMissing = Watcher->FirstMissing;
    Good = 0;
    for (size_t I = 0; I < Count; ++I) {
      if (Watcher->Bad[I] || !HS.isFileMultipleIncludeGuarded(*Watcher->Direct[I]))
        break;
      ++Good;
    }
    SourceManager &SM = CI.getSourceManager();
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
      FileEntryRef FE = It->first;
      if (FE.getName() == Block)
        continue;
      SmallString<256> P(FE.getName());
      CI.getFileManager().makeAbsolutePath(P);
      llvm::sys::path::remove_dots(P, true);
      Deps.push_back({std::string(P), static_cast<int64_t>(FE.getSize()),
                      static_cast<int64_t>(FE.getModificationTime())});
    }
    GeneratePCHAction::EndSourceFileAction();
  }

private:
  BlockWatcher *Watcher = nullptr;
};

std::string hex(ArrayRef<uint8_t> Bytes) { return toHex(Bytes, /*LowerCase=*/true); }

} // namespace

PchUse preparePch(const CompilerInvocation &Inv, FileManager &Files,
                  std::shared_ptr<PCHContainerOperations> Ops, StringRef CacheDir) {
  PchUse U;
  const FrontendOptions &FO = Inv.getFrontendOpts();
  const PreprocessorOptions &PPO = Inv.getPreprocessorOpts();
  if (FO.Inputs.size() != 1 || !FO.Inputs[0].isFile()) {
    U.Why = "not a single input file";
    return U;
  }
  if (!PPO.ImplicitPCHInclude.empty() || !PPO.Includes.empty() || !PPO.MacroIncludes.empty() ||
      !PPO.RemappedFiles.empty() || !PPO.RemappedFileBuffers.empty() || 
      // Clang modules (-fmodules); C++20 alone sets Modules and CPlusPlusModules but not ImplicitModules.
      (Inv.getLangOpts().Modules && (Inv.getLangOpts().ImplicitModules || !Inv.getLangOpts().CPlusPlusModules))) {
    U.Why = "the command line already uses -include, a PCH or modules";
    return U;
  }
  StringRef Main = FO.Inputs[0].getFile();
  auto Buf = Files.getVirtualFileSystem().getBufferForFile(Main);
  if (!Buf) {
    U.Why = "cannot read the main file";
    return U;
  }
  std::vector<std::string> Block = leadingSystemIncludes((*Buf)->getBuffer());
  if (Block.empty()) {
    U.Why = "no leading #include <...> block";
    return U;
  }

  // The key: compiler, torchlint, the complete cc1 command line (less the input's name), the
  // working directory, and (below) the block.
  BLAKE3 Base;
  auto Feed = [&](StringRef S) {
    Base.update(S);
    Base.update(StringRef("\0", 1));
  };
  Feed("torchlint-pch-2"); // 2: templates instantiated into the PCH
  Feed(getClangFullVersion());
  Feed(TORCHLINT_VERSION);
  std::vector<std::string> Args = Inv.getCC1CommandLine();
  for (size_t I = 0; I < Args.size(); ++I) {
    if (Args[I] == "-main-file-name") {
      ++I;
      continue;
    }
    if (Args[I] == Main)
      continue;
    Feed(Args[I]);
  }
  if (auto CWD = Files.getVirtualFileSystem().getCurrentWorkingDirectory())
    Feed(*CWD);

  // Precompile the libtorch part of the block: up to its last libtorch include (what follows,
  // <vector> and the like, is mostly skipped as already included), so that TUs whose blocks differ
  // only after it share one PCH. A block without libtorch is precompiled whole.
  size_t Keep = Block.size();
  for (size_t I = Block.size(); I > 0; --I) {
    StringRef H = Block[I - 1];
    if (H.starts_with("torch/") || H.starts_with("ATen/") || H.starts_with("c10/") || H.starts_with("caffe2/")) {
      Keep = I;
      break;
    }
  }
  for (int Round = 0; Round < 8 && Keep > 0; ++Round) {
    std::string Text;
    for (size_t I = 0; I < Keep; ++I)
      Text += "#include <" + Block[I] + ">\n";
    BLAKE3 H = Base;
    H.update(Text);
    SmallString<256> Dir(CacheDir);
    sys::path::append(Dir, "pch", hex(H.final<16>()));
    std::string ManifestPath = (Dir + "/manifest.json").str();
    std::string PchPath = (Dir + "/h.pch").str();
    std::string BlockPath = (Dir + "/block.h").str();

    Manifest M;
    if (readManifest(ManifestPath, M) && depsUnchanged(M)) {
      if (M.Status == "ok" && sys::fs::exists(PchPath)) {
        U.Path = PchPath;
        for (Dep &D : M.Deps)
          U.Deps.push_back(std::move(D.Path));
        return U;
      }
      if (M.Status == "truncate" && M.Keep < Keep) {
        Keep = M.Keep;
        continue;
      }
      if (M.Status == "none") {
        U.Why = M.Why;
        return U;
      }
    }

    if (sys::fs::create_directories(Dir)) {
      U.Why = "cannot create " + std::string(Dir);
      return U;
    }
    LockFileManager Lock(PchPath);
    switch (Lock.getState()) {
    case LockFileManager::LFS_Error:
      U.Why = "cannot lock " + PchPath;
      return U;
    case LockFileManager::LFS_Shared:
      // Another process builds it: wait, then read its manifest.
      if (Lock.waitForUnlock(1800) == LockFileManager::Res_Timeout) {
        U.Why = "timed out waiting for another process to build " + PchPath;
        return U;
      }
      continue;
    case LockFileManager::LFS_Owned:
      break;
    }
    // Owned: someone may have finished between our check and the lock.
    Manifest M2;
    if (readManifest(ManifestPath, M2) && depsUnchanged(M2) && M2.Status != "ok")
      continue;
    if (M2.Status == "ok" && depsUnchanged(M2) && sys::fs::exists(PchPath))
      continue;

    sys::fs::remove(ManifestPath);
    if (!writeFileAtomically(BlockPath, Text)) {
      U.Why = "cannot write " + BlockPath;
      return U;
    }
    std::string Tmp = PchPath + ".tmp" + std::to_string(sys::Process::getProcessId());
    auto PI = std::make_shared<CompilerInvocation>(Inv);
    FrontendOptions &PFO = PI->getFrontendOpts();
    PFO.Inputs.clear();
    PFO.Inputs.emplace_back(BlockPath, FO.Inputs[0].getKind().getHeader());
    PFO.ProgramAction = frontend::GeneratePCH;
    // Instantiate the block's pending templates once, into the PCH, instead of in every TU that
    // loads it (what CMake's precompile_headers does for clang; a benign language option, so
    // TUs compiled without it still load the PCH): about 2.6 s to 1.2 s per libtorch TU.
    PI->getLangOpts().PCHInstantiateTemplates = true;
    PFO.OutputFile = Tmp;
    PFO.DisableFree = false;
    PI->getDependencyOutputOpts() = DependencyOutputOptions();

    CompilerInstance Clang(Ops);
    Clang.setInvocation(PI);
    auto *Diags = new TextDiagnosticBuffer();
    Clang.createDiagnostics(Diags, /*ShouldOwnClient=*/true);
    Clang.createFileManager(Files.getVirtualFileSystemPtr());
    BlockPchAction Act;
    Act.Block = BlockPath;
    bool OK = Clang.ExecuteAction(Act) && !Clang.getDiagnostics().hasErrorOccurred();

    Manifest Out;
    Out.Deps = Act.Deps;
    if (!OK && Act.FirstMissing >= 0 && static_cast<size_t>(Act.FirstMissing) < Keep) {
      // A header missing under include K (a CPU-only libtorch's CUDA headers, say): precompile
      // what comes before it; the TU parses the rest itself and recovers (Recovery.h).
      sys::fs::remove(Tmp);
      Out.Status = "truncate";
      Out.Keep = static_cast<unsigned>(Act.FirstMissing);
      writeManifest(ManifestPath, Out);
      Keep = Out.Keep;
      continue;
    }
    if (!OK || Act.Count != Keep) {
      Out.Status = "none";
      Out.Why = "the include block does not compile on its own";
      if (Diags->err_begin() != Diags->err_end())
        Out.Why += ": " + Diags->err_begin()->second;
      sys::fs::remove(Tmp);
      writeManifest(ManifestPath, Out);
      U.Why = Out.Why;
      return U;
    }
    if (Act.Good < Keep) {
      // An include that is not guarded, or that enters the user's files: precompile only what
      // comes before it.
      sys::fs::remove(Tmp);
      Out.Status = "truncate";
      Out.Keep = static_cast<unsigned>(Act.Good);
      writeManifest(ManifestPath, Out);
      Keep = Act.Good;
      continue;
    }
    if (sys::fs::rename(Tmp, PchPath)) {
      sys::fs::remove(Tmp);
      U.Why = "cannot write " + PchPath;
      return U;
    }
    Out.Status = "ok";
    writeManifest(ManifestPath, Out);
    U.Path = PchPath;
    U.Built = true;
    for (Dep &D : Out.Deps)
      U.Deps.push_back(std::move(D.Path));
    return U;
  }
  if (U.Why.empty())
    U.Why = "no include of the block can be precompiled exactly";
  return U;
}

} // namespace torchlint
