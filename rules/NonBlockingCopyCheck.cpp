#include "rules/NonBlockingCopyCheck.h"
#include "analysis/Autograd.h"
#include "analysis/DeviceProvenance.h"
#include "analysis/LocalDataflow.h"
#include "analysis/NnModules.h"
#include "analysis/ProgramFacts.h"
#include "analysis/TUFacts.h"
#include "core/AstWalk.h"
#include "fixits/TensorOptionsFix.h"
#include "utils/ExprStrip.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

namespace {
/// A tensor method that returns the same host memory in another shape (`batch.data.view({n, -1})`):
/// copying its result is copying the batch.
bool isReshape(const CXXMemberCallExpr *C) {
  const CXXMethodDecl *M = C->getMethodDecl();
  return M && M->getDeclName().isIdentifier() && isTensorType(C->getImplicitObjectArgument()->getType()) &&
         llvm::is_contained(
             {"view", "reshape", "flatten", "squeeze", "unsqueeze", "permute", "transpose", "contiguous"},
             M->getName());
}

/// `batch.data.to(torch::kF32)`, `.toType(kFloat)`: a dtype conversion with no device, on the host
/// (the batch itself when it already has the type, else new pageable memory made from it).
bool isHostDtypeConversion(const CXXMemberCallExpr *C) {
  const CXXMethodDecl *M = C->getMethodDecl();
  if (!M || !M->getDeclName().isIdentifier() || !isTensorType(C->getImplicitObjectArgument()->getType()) ||
      C->getNumArgs() < 1)
    return false;
  if (M->getName() == "toType")
    return true;
  if (M->getName() != "to" || deviceArgumentOfTo(C))
    return false;
  const Expr *A = C->getArg(0)->IgnoreImplicit();
  QualType T = A->getType();
  if (const auto *ED = T->getAsTagDecl(); ED && ED->getDeclName().isIdentifier() && ED->getName() == "ScalarType")
    return true;
  if (const auto *RD = T->getAsCXXRecordDecl(); RD && RD->getDeclName().isIdentifier() && RD->getName() == "TypeMeta")
    return true;
  return false;
}

/// `t.index({Slice(), 0})`, `t.index({0})`: indexing with slices and integers only (basic
/// indexing) is a view of the same memory; a tensor or boolean index copies.
bool isBasicIndex(const CXXMemberCallExpr *C) {
  const CXXMethodDecl *M = C->getMethodDecl();
  if (!M || !M->getDeclName().isIdentifier() || M->getName() != "index" || C->getNumArgs() != 1 ||
      !isTensorType(C->getImplicitObjectArgument()->getType()))
    return false;
  const InitListExpr *Init = bracedList(C->getArg(0));
  if (!Init || Init->getNumInits() == 0)
    return false;
  for (const Expr *E : Init->inits()) {
    // Each element converts to a TensorIndex: look at what it is made from.
    QualType T = stripToWritten(E)->getType();
    if (T->isIntegerType())
      continue;
    const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
    if (RD && RD->getDeclName().isIdentifier() && RD->getName() == "Slice")
      continue;
    return false;
  }
  return true;
}

/// The device argument of the copy is (or is initialised from) a parameter of the enclosing
/// function: the device comes from its caller, perhaps in another file.
bool deviceFromOutside(const CXXMemberCallExpr *Call) {
  const Expr *Dev = Call->getMethodDecl() && Call->getMethodDecl()->getName() == "to" ? deviceArgumentOfTo(Call) : nullptr;
  if (!Dev)
    return false;
  Dev = Dev->IgnoreImplicit()->IgnoreParens();
  while (const auto *C = dyn_cast<CXXConstructExpr>(Dev)) {
    if (C->getNumArgs() != 1)
      break;
    Dev = C->getArg(0)->IgnoreImplicit()->IgnoreParens();
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(Dev);
  return Ref && isa<ParmVarDecl>(Ref->getDecl());
}

/// `std::get<I>(t)` (a tuple or pair the loader fills): t.
const Expr *stdGetArgument(const Expr *E) {
  const auto *C = dyn_cast<CallExpr>(E);
  if (!C || C->getNumArgs() != 1 || isa<CXXMemberCallExpr, CXXOperatorCallExpr>(C))
    return nullptr;
  const FunctionDecl *F = C->getDirectCallee();
  if (!F || !F->getDeclName().isIdentifier() || F->getName() != "get" || !F->isInStdNamespace())
    return nullptr;
  return C->getArg(0);
}

/// Cond is (or holds, under `!`, `&&`, `||`) a call returning bool that takes VD by non-const
/// reference: `loader(batch)`, `loader.next(batch)`, `next_batch(loader, batch)`. A call that is also
/// given a device (a prefetcher that delivers on the device) is not one.
bool fillsInCondition(const Expr *Cond, const VarDecl *VD) {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Cond); U && U->getOpcode() == UO_LNot)
    return fillsInCondition(U->getSubExpr(), VD);
  if (const auto *B = dyn_cast<BinaryOperator>(Cond); B && B->isLogicalOp())
    return fillsInCondition(B->getLHS(), VD) || fillsInCondition(B->getRHS(), VD);
  const auto *C = dyn_cast<CallExpr>(Cond);
  const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
  if (!F || !F->getReturnType()->isBooleanType())
    return false;
  // operator() of a loader object: its first argument is the object itself.
  unsigned Shift = isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(F) ? 1 : 0;
  bool Fills = false;
  for (unsigned I = Shift; I < C->getNumArgs(); ++I) {
    const Expr *A = C->getArg(I)->IgnoreParenImpCasts();
    if (const CXXRecordDecl *RD = A->getType()->getAsCXXRecordDecl();
        RD && RD->getDeclName().isIdentifier() && RD->getName() == "Device")
      return false;
    const auto *Ref = dyn_cast<DeclRefExpr>(A);
    if (!Ref || Ref->getDecl() != VD || I - Shift >= F->getNumParams())
      continue;
    QualType PT = F->getParamDecl(I - Shift)->getType();
    if (PT->isLValueReferenceType() && !PT.getNonReferenceType().isConstQualified())
      Fills = true;
  }
  return Fills;
}

/// A container of batches kept in memory: std::vector / std::deque of tensors, of (input, target)
/// pairs or tuples of tensors, or of torch::data::Example.
bool isBatchListType(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || Spec->getTemplateArgs().size() < 1 || Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return false;
  std::string N = Spec->getQualifiedNameAsString();
  if (N != "std::vector" && N != "std::deque")
    return false;
  QualType E = Spec->getTemplateArgs()[0].getAsType();
  if (isTensorType(E))
    return true;
  const auto *ES = dyn_cast_or_null<ClassTemplateSpecializationDecl>(E->getAsCXXRecordDecl());
  if (!ES)
    return false;
  std::string EN = ES->getQualifiedNameAsString();
  if (EN == "torch::data::Example")
    return true;
  if (EN != "std::pair" && EN != "std::tuple")
    return false;
  for (const TemplateArgument &A : ES->getTemplateArgs().asArray()) {
    if (A.getKind() == TemplateArgument::Pack) {
      for (const TemplateArgument &P : A.pack_elements())
        if (P.getKind() != TemplateArgument::Type || !isTensorType(P.getAsType()))
          return false;
    } else if (A.getKind() != TemplateArgument::Type || !isTensorType(A.getAsType())) {
      return false;
    }
  }
  return true;
}

/// The loop's body (not a function it calls) runs backward() or an optimizer step: a training loop.
bool loopTrains(const Stmt *Loop) {
  bool Trains = false;
  forEachCall(Loop, [&](const CallExpr *C) { Trains = Trains || isTrainingCall(C); });
  return Trains;
}

/// `batches[i]` (`batches.at(i)`) of a container of batches (isBatchListType) whose index is the
/// counter of a loop around it that trains: the loop walks the batches kept in memory, one per
/// step (`for (i = 0; i < train_iter.size(); ++i) { auto X = train_iter[i].first; ... }`). The
/// container, or null.
const VarDecl *indexedBatchList(const Expr *E, const HotCodeAnalysis &H) {
  const Expr *Obj = nullptr, *Index = nullptr;
  if (!elementAccess(E, Obj, Index) || !isBatchListType(Obj->getType()))
    return nullptr;
  const auto *List = dyn_cast<DeclRefExpr>(stripTemporaries(Obj));
  const auto *IndexRef = dyn_cast<DeclRefExpr>(stripTemporaries(Index));
  const auto *ListVD = List ? dyn_cast<VarDecl>(List->getDecl()) : nullptr;
  const auto *IndexVD = IndexRef ? dyn_cast<VarDecl>(IndexRef->getDecl()) : nullptr;
  if (!ListVD || !IndexVD)
    return nullptr;
  for (const Stmt *P = H.parentOf(E); P; P = H.parentOf(P))
    if (const auto *For = dyn_cast<ForStmt>(P)) {
      const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
      if (Init && Init->isSingleDecl() && Init->getSingleDecl() == IndexVD)
        return loopTrains(For) ? ListVD : nullptr;
    }
  return nullptr;
}

const VarDecl *batchVariable(const Expr *E, ASTContext &Ctx, unsigned Depth = 0, bool *FromList = nullptr);

/// Every write of Parts in its function is `std::transform(b.begin(), b.end(),
/// std::back_inserter(parts), [](auto &e) { return e.data; })` over a batch b (LocalDataflow.h
/// transformWritesOf): that batch's variable, else null.
const VarDecl *transformedBatch(const VarDecl *Parts, const Expr *Use, ASTContext &Ctx, unsigned Depth) {
  const VarDecl *Batch = nullptr;
  for (const TransformWrite &W : transformWritesOf(Parts, Use, Ctx)) {
    const VarDecl *B = batchVariable(W.Source, Ctx, Depth + 1, nullptr);
    if (!B || (Batch && B != Batch))
      return nullptr;
    Batch = B;
  }
  return Batch;
}

/// The loop variable of a range-for over a data loader that E (`batch.data`, `batch`,
/// `batch.data.view(...)`, `batch.data.index({Slice(), 0})`, `batch.data.to(torch::kF32)`, or a
/// local initialized from one of them and never assigned again, `auto data = batch.data;`, or whose
/// only reaching assignment is one of them) reads; for `torch::stack(parts)` of a vector holding
/// parts of a batch only, that batch's variable. A batch kept in host memory (an element of a
/// container of batches walked by a loop that trains: indexedBatchList, or a range-for over one)
/// gives the container or the range-for variable, and sets *FromList.
const VarDecl *batchVariable(const Expr *E, ASTContext &Ctx, unsigned Depth, bool *FromList) {
  E = stripTemporaries(E);
  const HotCodeAnalysis &H = HotCodeAnalysis::get(Ctx);
  for (;;) {
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      E = stripTemporaries(ME->getBase());
    else if (const Expr *Whole = stdGetArgument(E))
      E = stripTemporaries(Whole);
    else if (const auto *C = dyn_cast<CXXMemberCallExpr>(E); C && (isReshape(C) || isBasicIndex(C) || isHostDtypeConversion(C)))
      E = stripTemporaries(C->getImplicitObjectArgument());
    else
      break;
  }
  // A batch kept in memory, walked by the training loop.
  if (const VarDecl *List = indexedBatchList(E, H)) {
    if (FromList)
      *FromList = true;
    return List;
  }
  // `torch::stack(images)` / `torch::cat(images)` of a local vector that holds parts of the batch
  // only (`images.push_back(example.data)` over the examples of a batch): the collated batch, in
  // new pageable memory.
  if (const auto *C = dyn_cast<CallExpr>(E); C && !isa<CXXMemberCallExpr, CXXOperatorCallExpr>(C) && C->getNumArgs() >= 1) {
    const DeclRefExpr *Parts = Depth < 3 ? collatedVector(C) : nullptr;
    if (!Parts)
      return nullptr;
    const auto *PartsVD = cast<VarDecl>(Parts->getDecl());
    const VarValues &V = elementsOf(PartsVD, Ctx);
    if (!V.Known || V.Values.empty())
      return transformedBatch(PartsVD, Parts, Ctx, Depth);
    const VarDecl *First = nullptr;
    for (const Expr *Part : V.Values) {
      const VarDecl *B = batchVariable(Part, Ctx, Depth + 1);
      if (!B)
        return nullptr;
      First = First ? First : B;
    }
    return First;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD)
    return nullptr;
  // The range-for that declares VD, found by walking up from the use; or a loop whose condition
  // fills VD (`while (loader(batch))`, `while (loader.next(batch))`: a project's own loader).
  for (const Stmt *P = H.parentOf(E); P; P = H.parentOf(P)) {
    if (const auto *For = dyn_cast<CXXForRangeStmt>(P))
      if (For->getLoopVariable() == VD) {
        if (!For->getRangeInit())
          return nullptr;
        // Over a loader; or over a batch that is a vector of examples (a loader without a Stack
        // transform, handed to the project's own collate function).
        if (isDataLoaderType(For->getRangeInit()->getType()) ||
            (Depth < 3 && batchVariable(For->getRangeInit(), Ctx, Depth + 1, FromList)))
          return VD;
        // A loop that trains on each element of a container of batches kept in memory.
        if (isBatchListType(For->getRangeInit()->getType()) && isa<DeclRefExpr>(stripTemporaries(For->getRangeInit())) &&
            loopTrains(For)) {
          if (FromList)
            *FromList = true;
          return VD;
        }
        return nullptr;
      }
    const Expr *Cond = nullptr;
    if (const auto *W = dyn_cast<WhileStmt>(P))
      Cond = W->getCond();
    else if (const auto *F = dyn_cast<ForStmt>(P))
      Cond = F->getCond();
    if (Cond && VD->isLocalVarDecl() && !isa<ParmVarDecl>(VD) && fillsInCondition(Cond, VD))
      return VD;
  }
  // A parameter (`collate(std::vector<Example<>> &batch, ...)`) given a batch at every call in
  // this TU.
  if (const auto *PV = dyn_cast<ParmVarDecl>(VD); PV && Depth < 3) {
    auto Args = H.argumentsAtEveryCall(PV, /*AllowNonConstReference=*/true);
    if (Args && llvm::all_of(*Args, [&](const Expr *A) { return batchVariable(A, Ctx, Depth + 1) != nullptr; }))
      return VD;
    return nullptr;
  }
  // A local that holds the batch (or a part of it) all along, or where it is read: `auto x =
  // batch.data;` then `x = x.to(device);` (the initialiser is the only write that reaches the copy).
  if (Depth < 2 && VD->isLocalVarDecl() && VD->getInit()) {
    const VarValues &V = valuesOf(VD, Ctx);
    if (V.Known && !V.Written && V.Values.size() == 1)
      return batchVariable(stripCopies(V.Values.front()), Ctx, Depth + 1, FromList);
    if (const Expr *Reaching = onlyReachingAssignment(DRE, VD, Ctx))
      return batchVariable(stripCopies(Reaching), Ctx, Depth + 1, FromList);
  }
  return nullptr;
}
/// `torch::from_blob(ptr, sizes)` on host memory (also through reshapes, basic indexing, and a local
/// that holds it all along): memory the program owns, pageable; the call, or null.
const CallExpr *wrappedHostMemory(const Expr *E, ASTContext &Ctx, unsigned Depth = 0) {
  E = stripTemporaries(E);
  while (const auto *C = dyn_cast<CXXMemberCallExpr>(E)) {
    if (!isReshape(C) && !isBasicIndex(C))
      break;
    E = stripTemporaries(C->getImplicitObjectArgument());
  }
  if (const auto *C = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *F = C->getDirectCallee();
    if (!F || !F->getDeclName().isIdentifier() || !tensorFactoryKind(F->getName()).FromHost)
      return nullptr;
    return deviceOf(C, Ctx) == DeviceKind::CPU ? C : nullptr;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || Depth >= 2 || !VD->isLocalVarDecl() || !VD->getInit())
    return nullptr;
  const VarValues &V = valuesOf(VD, Ctx);
  if (V.Known && !V.Written && V.Values.size() == 1)
    return wrappedHostMemory(stripCopies(V.Values.front()), Ctx, Depth + 1);
  return nullptr;
}

} // namespace

void NonBlockingCopyCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      cxxMemberCallExpr(callee(cxxMethodDecl(hasAnyName("to", "cuda"), isTensorMethod()).bind("m"))).bind("call"),
      this);
}

void NonBlockingCopyCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CXXMemberCallExpr>("call");
  const auto *M = Result.Nodes.getNodeAs<CXXMethodDecl>("m");
  ASTContext &Ctx = *Result.Context;
  SourceLocation Loc = Call->getExprLoc();
  if (!inUserCode(Loc, *Result.SourceManager))
    return;
  const CallExpr *Wrapped = nullptr;
  bool FromList = false;
  if (!batchVariable(Call->getImplicitObjectArgument(), Ctx, 0, &FromList) &&
      !(Wrapped = wrappedHostMemory(Call->getImplicitObjectArgument(), Ctx)))
    return;
  // A CPU-only program (main() here, no CUDA, no device from another file): nothing to overlap. A
  // file without main() that copies to a device it is given (a `torch::Device &` parameter of
  // train()) does not know: the program may well use CUDA.
  const TUFacts &T = TUFacts::get(Ctx);
  if (T.usesCUDA().isInvalid() &&
      (!deviceFromOutside(Call) || (ProgramFacts::get(Ctx).Main && T.opaqueDevice().isInvalid())))
    return;
  if (M->getName() == "to") {
    const Expr *Dev = deviceArgumentOfTo(Call);
    if (!Dev || isConstantCpuDevice(Dev))
      return; // a dtype conversion, or a copy to the host (non_blocking would need a sync)
    for (unsigned I = 0; I < M->getNumParams() && I < Call->getNumArgs(); ++I) {
      if (M->getParamDecl(I)->getName() != "non_blocking")
        continue;
      const Expr *A = Call->getArg(I);
      if (isa<CXXDefaultArgExpr>(A))
        break;
      bool B;
      if (A->isValueDependent() || !A->EvaluateAsBooleanCondition(B, Ctx) || B)
        return; // non_blocking set (or set at run time)
    }
  }
  auto Hot = hotContext(Call, Ctx);
  if (!Hot)
    return;
  if (Wrapped) {
    report(Loc,
           "host memory wrapped with from_blob() copied to the device without non_blocking: the memory is "
           "pageable, so the host blocks on every copy; copy it into a pinned buffer allocated once before the "
           "loop (`torch::empty(sizes, torch::TensorOptions().dtype(...).pinned_memory(true))`, then per step "
           "`staging.copy_(torch::from_blob(...))`) and use `staging.to(device, /*non_blocking=*/true)`; memory "
           "that holds the same values on every step is better uploaded once, before the loop",
           Hot);
    return;
  }
  if (FromList) {
    // Batches kept in host memory for the whole run: pin them once, not every step.
    if (deviceOf(Call->getImplicitObjectArgument(), Ctx) == DeviceKind::Accelerator)
      return;
    report(Loc,
           "batch kept in host memory copied to the device without non_blocking on every step: the host "
           "blocks on each copy; pin the batches once where the container is filled (`.pin_memory()`) and "
           "use `.to(device, /*non_blocking=*/true)`, or move the whole container to the device once before "
           "training if it fits",
           Hot);
    return;
  }
  report(Loc,
         "batch tensor copied to the device without non_blocking: the host blocks on every copy "
         "instead of queueing it behind the running kernels; put the batch in pinned memory "
         "(`.pin_memory()`) and use `.to(device, /*non_blocking=*/true)`",
         Hot);
}

} // namespace torchlint
