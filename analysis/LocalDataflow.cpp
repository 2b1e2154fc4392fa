#include "analysis/LocalDataflow.h"
#include "analysis/HotCode.h"
#include "analysis/TorchTypes.h"
#include "analysis/UserCodeVisitor.h"
#include "core/AstWalk.h"
#include "core/PerTU.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"
#include <algorithm>
#include <memory>

using namespace clang;

namespace torchlint {

namespace {

/// A whole container of tensors named as a value (`w`, `std::move(other.boxes_)`, a field, a
/// parameter): a copy of it or an assignment from it holds its elements. Null otherwise.
const Expr *wholeContainer(const Expr *E) {
  E = stripMoves(E);
  return E && isa<DeclRefExpr, MemberExpr>(E) && isTensorContainerType(E->getType()) ? E : nullptr;
}

/// Whether the body of RF never reassigns its loop variable and never lets it escape: each
/// iteration only reads the element it is given.
bool loopVariableOnlyRead(const CXXForRangeStmt *RF, ASTContext &Ctx, unsigned Depth = 0);

class RefFinder : public RecursiveASTVisitor<RefFinder> {
public:
  /// Elements: VD is a container of tensors, and what is asked is the values put into it
  /// (push_back(x), emplace_back(x), v[i] = x), not the values of VD itself.
  RefFinder(const ValueDecl *VD, ASTContext &Ctx, VarValues &Out, unsigned Depth = 0, bool Elements = false)
      : VD(VD), Ctx(Ctx), HC(HotCodeAnalysis::get(Ctx)), Out(Out), Depth(Depth), Elements(Elements) {}

  /// Classifies one use of VD (a DeclRefExpr or, for a field, a MemberExpr) found elsewhere.
  void use(const Expr *E) {
    Current = E;
    if (!Escaped)
      classify(E, Elements);
  }

  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
    if (S->getLoopVariable() == VD)
      RangeFor = true;
    return true;
  }
  bool RangeFor = false;
  bool shouldVisitLambdaBody() const { return true; }

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (DRE->getDecl() != VD || Escaped)
      return true;
    Current = DRE;
    classify(DRE, Elements);
    return true;
  }

private:
  void escape() {
    if (!Escaped && Current)
      EscapedAt = Current->getBeginLoc();
    Escaped = true;
  }
  const Expr *Current = nullptr; // the use being classified

public:
  bool Escaped = false;
  clang::SourceLocation EscapedAt; // the use that made it escape
  /// What is asked is where the values live and their dtype (a field's writes), not their shape.
  bool DevicesOnly = false;

private:
  /// Container: Use is the container itself (Elements mode), whose uses are classified as the
  /// values they put into it; an element it yields (v[i], v.back()) is classified as a tensor.
  void classify(const Expr *Use, bool Container = false) {
    // Walk up through parens and implicit nodes to the expression that uses the variable.
    const Expr *E = Use;
    while (true) {
      const Stmt *PS = HC.parentOf(E);
      if (const auto *RF = dyn_cast_or_null<CXXForRangeStmt>(PS); RF && Container) {
        // `for (auto &t : v) t = t.cuda();` writes the elements; `for (auto &t : v) s += t[0];`
        // only reads them (a loop variable that the body never reassigns and that never escapes).
        if (RF->getRangeInit() && RF->getRangeInit()->IgnoreParenImpCasts() == E->IgnoreParenImpCasts() &&
            nonConstRef(RF->getLoopVariable()->getType())) {
          if (!loopVariableOnlyRead(RF, Ctx, Depth))
            escape();
        }
        return;
      }
      if (const auto *DS = dyn_cast_or_null<DeclStmt>(PS)) {
        // `Tensor &r = t;`: r writes t from now on.
        for (const Decl *D : DS->decls())
          if (const auto *R = dyn_cast<VarDecl>(D))
            if (R->getInit() && R->getInit()->IgnoreParenImpCasts() == E->IgnoreParenImpCasts() &&
                nonConstRef(R->getType()))
              return escape();
        return;
      }
      const auto *P = dyn_cast_or_null<Expr>(PS);
      if (!P)
        return; // a statement (e.g. return t;): a read
      if (isa<ParenExpr, ImplicitCastExpr, MaterializeTemporaryExpr>(P)) {
        if (const auto *IC = dyn_cast<ImplicitCastExpr>(P))
          if (IC->getCastKind() != CK_NoOp && IC->getCastKind() != CK_LValueToRValue &&
              IC->getCastKind() != CK_UncheckedDerivedToBase && IC->getCastKind() != CK_DerivedToBase)
            return;
        E = P;
        continue;
      }
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(P)) {
        if (Container) {
          // v[i] yields an element (classified as a tensor); v = w, &v and the rest: unknown.
          if (Op->getNumArgs() >= 1 && Op->getArg(0)->IgnoreParenImpCasts() == E->IgnoreParenImpCasts() &&
              Op->getOperator() == OO_Subscript)
            return classify(Op, false);
          if (Op->getNumArgs() == 2 && Op->getOperator() == OO_Equal &&
              Op->getArg(0)->IgnoreParenImpCasts() == E->IgnoreParenImpCasts())
            if (const Expr *W = wholeContainer(Op->getArg(1))) {
              Out.Values.push_back(W); // `v = std::move(w)`: w's elements
              return;
            }
          if (Op->getNumArgs() >= 1 && Op->getArg(0)->IgnoreParenImpCasts() == E->IgnoreParenImpCasts())
            return escape();
          checkArgument(Op, E);
          return;
        }
        if (Op->getNumArgs() >= 1 && Op->getArg(0)->IgnoreParenImpCasts() == E->IgnoreParenImpCasts()) {
          if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
            Out.Values.push_back(Op->getArg(1));
            return;
          }
          if (Op->getOperator() == OO_Amp && Op->getNumArgs() == 1)
            return escape();
          return; // t += x, t[i], t == x: device and dtype kept
        }
        checkArgument(Op, E);
        return;
      }
      if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
        if (Container) {
          if (BO->isAssignmentOp() && BO->getLHS()->IgnoreParenImpCasts() == E->IgnoreParenImpCasts())
            escape();
          return;
        }
        if (BO->isAssignmentOp() && BO->getLHS()->IgnoreParenImpCasts() == E->IgnoreParenImpCasts()) {
          if (BO->getOpcode() == BO_Assign)
            Out.Values.push_back(BO->getRHS());
          else
            escape();
        }
        return;
      }
      if (const auto *UO = dyn_cast<UnaryOperator>(P)) {
        if (UO->getOpcode() == UO_AddrOf || UO->isIncrementDecrementOp())
          escape();
        return;
      }
      if (const auto *ME = dyn_cast<MemberExpr>(P); ME && Container) {
        containerMethod(ME);
        return;
      }
      if (const auto *ME = dyn_cast<MemberExpr>(P)) {
        // t.set_(...), t.swap(...), t.resize_(...): the variable stops being what it was made as.
        // A field's writes are asked for devices and dtypes only, which a view's or a resize's
        // in-place form keeps (`state_ = step.states.squeeze_(0)`).
        if (const auto *MD = dyn_cast<CXXMethodDecl>(ME->getMemberDecl()))
          if (MD->getDeclName().isIdentifier()) {
            llvm::StringRef N = MD->getName();
            if (llvm::is_contained({"set_", "swap", "set_index"}, N) ||
                (!DevicesOnly && llvm::is_contained({"resize_", "resize_as_", "unsqueeze_", "squeeze_", "t_",
                                                     "transpose_", "as_strided_", "swapdims_", "swapaxes_"},
                                                    N)))
              escape();
          }
        return;
      }
      if (const auto *C = dyn_cast<CallExpr>(P)) {
        checkArgument(C, E);
        return;
      }
      if (const auto *CE = dyn_cast<CXXConstructExpr>(P)) {
        const CXXConstructorDecl *Ctor = CE->getConstructor();
        if (Ctor && isTorchDecl(Ctor))
          return; // TensorOptions(device), Device(...): forwarding references, no modification
        for (unsigned I = 0; Ctor && I < CE->getNumArgs() && I < Ctor->getNumParams(); ++I)
          if (CE->getArg(I)->IgnoreParenImpCasts() == E->IgnoreParenImpCasts() &&
              nonConstRef(Ctor->getParamDecl(I)->getType()) && !Ctor->isCopyOrMoveConstructor())
            escape();
        return;
      }
      if (isa<LambdaExpr>(P))
        return; // capture: its uses inside the body are visited on their own
      return;
    }
  }

  /// A method called on a container whose elements are asked about: push_back(x) and
  /// emplace_back(x) add x; at(), back() and front() yield an element; reading and shrinking
  /// methods keep the elements; anything else (insert, assign, swap, data()) is not followed.
  void containerMethod(const MemberExpr *ME) {
    const auto *MD = dyn_cast<CXXMethodDecl>(ME->getMemberDecl());
    const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(HC.parentOf(ME));
    if (!MD || !MD->getDeclName().isIdentifier() || !Call)
      return escape();
    llvm::StringRef N = MD->getName();
    if ((N == "push_back" || N == "emplace_back" || N == "push_front" || N == "emplace_front") &&
        Call->getNumArgs() == 1) {
      Out.Values.push_back(Call->getArg(0));
      return;
    }
    if (N == "at" || N == "back" || N == "front")
      return classify(Call, false);
    if (N == "find") {
      // `m.find(k) != m.end()`: a lookup compared, no iterator kept to write through.
      const Stmt *P = HC.parentOf(Call);
      while (P && isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr, ParenExpr>(P))
        P = HC.parentOf(P);
      if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(P);
          Op && (Op->getOperator() == OO_EqualEqual || Op->getOperator() == OO_ExclaimEqual))
        return;
      if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P); BO && BO->isEqualityOp())
        return;
      if (const auto *RW = dyn_cast_or_null<CXXRewrittenBinaryOperator>(P);
          RW && (RW->getOperator() == BO_EQ || RW->getOperator() == BO_NE))
        return; // C++20: `a != b` rewritten as `!(a == b)`

    }
    if (MD->isConst() || llvm::is_contained({"clear", "reserve", "pop_back", "pop_front", "shrink_to_fit", "begin",
                                             "end", "size", "empty"},
                                            N))
      return; // a non-const begin() hands out iterators that write: a range-for over them escapes (DeclStmt)
    escape();
  }

  static bool nonConstRef(QualType T) {
    if (const auto *R = T->getAs<ReferenceType>())
      return !R->getPointeeType().isConstQualified();
    return false;
  }

  /// The parameter type as written in FD's template pattern (Args&&... for a pack).
  static QualType writtenParamType(const FunctionDecl *FD, unsigned PI) {
    const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
    if (!Pattern || Pattern->getNumParams() == 0)
      return FD->getParamDecl(PI)->getType();
    for (unsigned I = 0; I < Pattern->getNumParams(); ++I)
      if (Pattern->getParamDecl(I)->isParameterPack() || I == PI)
        return Pattern->getParamDecl(I)->getType();
    return FD->getParamDecl(PI)->getType();
  }

  void checkArgument(const CallExpr *C, const Expr *E) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD) {
      // The function pointer called (`fn(x)`): a read, not a write.
      if (C->getCallee()->IgnoreParenImpCasts() == E->IgnoreParenImpCasts())
        return;
      escape();
      return;
    }
    // std::move(t): its value goes elsewhere, t gets no new one (a reassignment later is seen).
    if (stripMoves(C) != C)
      return;
    unsigned Shift = isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(FD) ? 1 : 0;
    for (unsigned I = Shift; I < C->getNumArgs(); ++I) {
      if (C->getArg(I)->IgnoreParenImpCasts() != E->IgnoreParenImpCasts())
        continue;
      unsigned PI = I - Shift;
      if (PI >= FD->getNumParams()) {
        escape(); // variadic
        return;
      }
      if (!nonConstRef(FD->getParamDecl(PI)->getType()))
        continue;
      if (isTorchDecl(FD)) {
        // libtorch takes devices and options by forwarding reference (TensorOptions::device(
        // Args&&...)) without modifying them; a parameter written as a non-const lvalue reference
        // is written to: *_out variants, torch::load(value, ...), InputArchive::read(key, tensor).
        QualType W = writtenParamType(FD, PI);
        if (W->isLValueReferenceType() && !W->getPointeeType().isConstQualified())
          escape();
        continue;
      }
      followOutParameter(FD, PI);
    }
  }

  /// VD is passed by non-const reference to parameter PI of user function FD. When FD's body is
  /// in the TU, what it assigns to the parameter are more values of VD (an out-parameter filled
  /// by `out = ...`), and in-place writes (out.copy_(src), writes through data_ptr()) keep VD's
  /// device and dtype. Without a body, or when the parameter escapes again there, VD escapes.
  void followOutParameter(const FunctionDecl *FD, unsigned PI) {
    const FunctionDecl *Def = FD->getDefinition();
    if (Def && Ctx.getSourceManager().isInSystemHeader(Ctx.getSourceManager().getExpansionLoc(Def->getLocation())))
      Def = nullptr; // std::swap(a, b) and the like: not analysed, so not followed
    const ParmVarDecl *P = Def && Def->getBody() && PI < Def->getNumParams() ? Def->getParamDecl(PI) : nullptr;
    if (!P || Depth >= 4 || Def->isVariadic()) {
      escape();
      return;
    }
    VarValues Inner;
    RefFinder F(P, Ctx, Inner, Depth + 1, Elements);
    F.TraverseStmt(Def->getBody());
    if (F.Escaped || F.RangeFor) {
      escape();
      return;
    }
    Out.Values.insert(Out.Values.end(), Inner.Values.begin(), Inner.Values.end());
  }

  const ValueDecl *VD;
  ASTContext &Ctx;
  const HotCodeAnalysis &HC;
  VarValues &Out;
  unsigned Depth; // out-parameters followed into callees so far
  bool Elements;
};

bool loopVariableOnlyRead(const CXXForRangeStmt *RF, ASTContext &Ctx, unsigned Depth) {
  if (!RF->getBody())
    return false;
  VarValues Writes;
  RefFinder R(RF->getLoopVariable(), Ctx, Writes, Depth);
  R.TraverseStmt(const_cast<Stmt *>(RF->getBody()));
  return !R.Escaped && Writes.Values.empty();
}

/// The values of every local variable asked about in a TU.
struct ValuesCache {
  llvm::DenseMap<const VarDecl *, VarValues> Map;
};
struct RangeCache {
  llvm::DenseMap<const VarDecl *, const Expr *> Map;
};
struct ElementsCache {
  llvm::DenseMap<const VarDecl *, VarValues> Map;
};

/// The initial elements of a container: a braced list's, none for a default-constructed one;
/// false for anything else (a copy, a size, an iterator range).
bool initialElements(const Expr *Init, std::vector<const Expr *> &Out) {
  if (!Init)
    return true;
  const Expr *S = stripCopies(Init);
  if (const auto *IL = dyn_cast<CXXStdInitializerListExpr>(S))
    S = stripCopies(IL->getSubExpr());
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
    if (CE->getNumArgs() == 0)
      return true;
    if (CE->isListInitialization() || CE->isStdInitListInitialization() || CE->getNumArgs() == 1)
      return CE->getNumArgs() == 1 && CE->getArg(0) != Init ? initialElements(CE->getArg(0), Out) : false;
    return false;
  }
  if (const auto *IL = dyn_cast<InitListExpr>(S)) {
    for (const Expr *E : IL->inits()) {
      if (isTensorType(E->getType()))
        Out.push_back(E);
      else if (!initialElements(E, Out))
        return false;
    }
    return true;
  }
  if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(S))
    return initialElements(MT->getSubExpr(), Out);
  return false;
}

/// A container of tensors or a map to tensors: its uses put elements in or take them out.
bool holdsTensors(QualType T) { return isTensorContainerType(T) || isTensorMapType(T); }

/// Every write of the tensor and tensor-container fields in the user code of a TU.
class FieldWriteCollector : public UserCodeVisitor<FieldWriteCollector> {
public:
  FieldWriteCollector(ASTContext &Ctx, llvm::DenseMap<const FieldDecl *, VarValues> &Out)
      : UserCodeVisitor(Ctx.getSourceManager()), Ctx(Ctx), Out(Out) {}
  bool VisitMemberExpr(MemberExpr *ME) {
    if (const auto *FD = tracked(ME->getMemberDecl())) {
      VarValues &V = entry(FD);
      RefFinder F(FD, Ctx, V, 0, holdsTensors(FD->getType()));
      F.DevicesOnly = true;
      F.use(ME);
      if (F.Escaped)
        V.Known = false; // not followed
    }
    return true;
  }
  bool VisitCXXConstructorDecl(CXXConstructorDecl *C) {
    if (!C->hasBody())
      return true;
    for (const CXXCtorInitializer *I : C->inits())
      if (const auto *FD = tracked(I->getMember()); FD && I->isWritten())
        store(FD, I->getInit());
    return true;
  }
  bool VisitFieldDecl(FieldDecl *FD) {
    if (tracked(FD) && FD->hasInClassInitializer())
      store(FD, FD->getInClassInitializer());
    return true;
  }
  bool VisitInitListExpr(InitListExpr *IL) {
    // Aggregate initialization: Batch{images, labels}.
    const auto *RD = IL->getType()->getAsCXXRecordDecl();
    if (!RD || !IL->isSemanticForm())
      return true;
    for (const FieldDecl *FD : RD->fields())
      if (FD->getFieldIndex() < IL->getNumInits() && tracked(FD))
        store(FD, IL->getInit(FD->getFieldIndex()));
    return true;
  }

private:
  const FieldDecl *tracked(const ValueDecl *D) {
    const auto *FD = dyn_cast_or_null<FieldDecl>(D);
    if (!FD || !(isTensorType(FD->getType()) || holdsTensors(FD->getType()) || isDeviceValueType(FD->getType())))
      return nullptr;
    return FD;
  }
  void store(const FieldDecl *FD, const Expr *Init) {
    VarValues &V = entry(FD);
    if (isDeviceValueType(FD->getType())) {
      V.Values.push_back(Init);
      return;
    }
    if (isTensorType(FD->getType())) {
      const auto *CE = dyn_cast<CXXConstructExpr>(stripCopies(Init));
      if (!(CE && CE->getNumArgs() == 0))
        V.Values.push_back(Init);
      return;
    }
    if (initialElements(Init, V.Values))
      return;
    if (const Expr *W = wholeContainer(Init))
      V.Values.push_back(W); // `boxes_(std::move(boxes))`: the elements of boxes
    else
      V.Known = false; // not followed
  }
  /// FD's entry: known (every write followed) until a write is not; written (it is a field).
  VarValues &entry(const FieldDecl *FD) {
    auto [It, New] = Out.try_emplace(FD);
    if (New)
      It->second.Known = It->second.Written = true;
    return It->second;
  }

  ASTContext &Ctx;
  llvm::DenseMap<const FieldDecl *, VarValues> &Out;
};

struct FieldWrites {
  llvm::DenseMap<const FieldDecl *, VarValues> Map;
  bool Built = false;
};

} // namespace

const VarValues &valuesOf(const VarDecl *VD, ASTContext &Ctx) {
  // Per TU: a later TU whose ASTContext reuses the address never sees another TU's VarDecls.
  llvm::DenseMap<const VarDecl *, VarValues> &Cache = perTU<ValuesCache>(Ctx).Map;
  auto It = Cache.find(VD);
  if (It != Cache.end())
    return It->second;
  VarValues V;
  if (const auto *PV = dyn_cast<ParmVarDecl>(VD)) {
    const auto *PF = dyn_cast_or_null<FunctionDecl>(PV->getDeclContext());
    if (PF && PF->getBody() && !PV->getType()->isReferenceType()) {
      RefFinder F(VD, Ctx, V);
      F.TraverseStmt(PF->getBody());
      V.Written = F.Escaped || !V.Values.empty();
    } else {
      V.Written = true;
    }
    V.Values.clear();
    return Cache[VD] = std::move(V);
  }
  const auto *FD = dyn_cast_or_null<FunctionDecl>(VD->getDeclContext());
  bool Local =
      VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) && FD && FD->getBody() && !VD->getType()->isReferenceType();
  if (Local) {
    V.Known = true;
    const Expr *Init = VD->getInit();
    if (Init) {
      const Expr *S = stripCopies(Init);
      const auto *CE = dyn_cast<CXXConstructExpr>(S);
      if (CE && CE->getNumArgs() == 0)
        V.DefaultInit = true;
      else
        V.Values.push_back(Init);
    } else {
      V.DefaultInit = true;
    }
    size_t Initial = V.Values.size();
    RefFinder F(VD, Ctx, V);
    F.TraverseStmt(FD->getBody());
    V.Written = F.Escaped || V.Values.size() > Initial;
    // Escaped, or a range-for loop variable (its initializer is the iterator's *).
    if (F.Escaped || F.RangeFor)
      V.Known = false;
    if (F.Escaped && !F.RangeFor)
      V.EscapedAt = F.EscapedAt;
  } else if (const Expr *Init = VD->getInit(); Init && VD->hasGlobalStorage() && !VD->getType()->isReferenceType() &&
                                                 !VD->isStaticDataMember() && !VD->isExternallyVisible() &&
                                                 !isLibraryLocation(Ctx.getSourceManager(), VD->getLocation())) {
    // A variable no other file can name (`static auto opts = TensorOptions().dtype(kLong);`, one in
    // an anonymous namespace, a function's static): its initialiser and every write in this TU.
    V.Known = true;
    V.Values.push_back(Init);
    RefFinder F(VD, Ctx, V);
    if (FD && FD->getBody()) {
      F.TraverseStmt(FD->getBody());
    } else {
      const SourceManager &SM = Ctx.getSourceManager();
      // The user's declarations only (libtorch's headers may be on -I, not system headers).
      for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
        if (!isLibraryLocation(SM, D->getLocation()))
          F.TraverseDecl(D);
    }
    V.Written = F.Escaped || V.Values.size() > 1;
    if (F.Escaped)
      V.Known = false;
  } else {
    V.Written = true;
  }
  return Cache[VD] = std::move(V);
}

const Expr *rangeOfLoopVariable(const VarDecl *VD, ASTContext &Ctx) {
  llvm::DenseMap<const VarDecl *, const Expr *> &Cache = perTU<RangeCache>(Ctx).Map;
  if (auto It = Cache.find(VD); It != Cache.end())
    return It->second;
  auto Find = [&]() -> const Expr * {
    const auto *FD = dyn_cast_or_null<FunctionDecl>(VD->getDeclContext());
    if (!FD || !FD->getBody() || isa<ParmVarDecl>(VD))
      return nullptr;
    struct Finder : RecursiveASTVisitor<Finder> {
      const VarDecl *VD = nullptr;
      const CXXForRangeStmt *Found = nullptr;
      bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
        if (S->getLoopVariable() == VD)
          Found = S;
        return !Found;
      }
    } F;
    F.VD = VD;
    F.TraverseStmt(FD->getBody());
    if (!F.Found || !F.Found->getRangeInit())
      return nullptr;
    return loopVariableOnlyRead(F.Found, Ctx) ? F.Found->getRangeInit() : nullptr;
  };
  const Expr *Range = Find();
  return Cache[VD] = Range;
}

const VarValues &elementsOf(const VarDecl *VD, ASTContext &Ctx) {
  llvm::DenseMap<const VarDecl *, VarValues> &Cache = perTU<ElementsCache>(Ctx).Map;
  auto It = Cache.find(VD);
  if (It != Cache.end())
    return It->second;
  VarValues V;
  const auto *FD = dyn_cast_or_null<FunctionDecl>(VD->getDeclContext());
  if (VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) && FD && FD->getBody() && !VD->getType()->isReferenceType() &&
      isTensorContainerType(VD->getType()) && initialElements(VD->getInit(), V.Values)) {
    V.Known = true;
    RefFinder F(VD, Ctx, V, 0, /*Elements=*/true);
    F.TraverseStmt(FD->getBody());
    if (F.Escaped)
      V.Known = false;
  }
  if (!V.Known)
    V.Values.clear();
  return Cache[VD] = std::move(V);
}

const llvm::DenseMap<const FieldDecl *, VarValues> &fieldWritesOf(ASTContext &Ctx) {
  FieldWrites &W = perTU<FieldWrites>(Ctx);
  if (!W.Built) {
    W.Built = true;
    FieldWriteCollector C(Ctx, W.Map);
    C.TraverseDecl(Ctx.getTranslationUnitDecl());
  }
  return W.Map;
}

/// The right-hand side of `V = X;` (or V's initialiser) when that write is the only one of the
/// local V that reaches the use Use: a statement of a block around Use, before it, with no other
/// write of V written between the two, nor after Use inside a loop around Use that the assignment
/// is outside of (the loop's next iteration would bring it back). `t = t.cpu().to(torch::kDouble);` followed
/// by `t[i][j].item<double>()`: the use reads the host copy whatever t held before. Null otherwise.
const Expr *assignedValue(const Stmt *S, const VarDecl **To) {
  if (const auto *EWC = dyn_cast_or_null<ExprWithCleanups>(S))
    S = EWC->getSubExpr();
  const Expr *L = nullptr, *R = nullptr;
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign)
    L = BO->getLHS(), R = BO->getRHS();
  else if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(S); Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
    L = Op->getArg(0), R = Op->getArg(1);
  const auto *D = L ? dyn_cast<DeclRefExpr>(L->IgnoreParenImpCasts()) : nullptr;
  const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  if (!V)
    return nullptr;
  if (To)
    *To = V;
  return R;
}

const Expr *onlyReachingAssignment(const DeclRefExpr *Use, const VarDecl *VD, ASTContext &Ctx) {
  if (!VD->isLocalVarDecl() || VD->isStaticLocal())
    return nullptr;
  const VarValues &V = valuesOf(VD, Ctx);
  if (!V.Known || V.Values.size() < 2)
    return nullptr;
  if (V.EscapedAt.isValid())
    return nullptr;
  const SourceManager &SM = Ctx.getSourceManager();
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  auto Before = [&](SourceLocation A, SourceLocation B) {
    return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A), SM.getExpansionLoc(B));
  };
  // Every write must be written in the use's own function: one made through a reference
  // parameter of a callee (`to_device(t)` assigning `out = out.to(kCUDA)`) happens at the call,
  // which the walk below cannot place.
  const FunctionDecl *FD = HC.enclosingFunction(Use);
  const Stmt *Body = FD ? FD->getBody() : nullptr;
  if (!Body)
    return nullptr;
  for (const Expr *Val : V.Values)
    if (Before(Val->getBeginLoc(), Body->getBeginLoc()) || Before(Body->getEndLoc(), Val->getBeginLoc()))
      return nullptr;
  auto AssignedValue = [&](const Stmt *S) -> const Expr * {
    const VarDecl *To = nullptr;
    const Expr *R = assignedValue(S, &To);
    return To == VD ? R : nullptr;
  };
  std::vector<const Stmt *> Loops; // loops around Use, up to the block of the assignment
  const Expr *Assigned = nullptr;
  for (const Stmt *Child = Use, *P = HC.parentOf(Use); P && !Assigned; Child = P, P = HC.parentOf(P)) {
    if (isa<LambdaExpr>(P))
      return nullptr;
    if (isLoopStatement(P))
      Loops.push_back(P);
    const auto *Block = dyn_cast<CompoundStmt>(P);
    if (!Block)
      continue;
    const Stmt *Prev = nullptr;
    for (const Stmt *S : Block->body()) {
      if (S == Child)
        break;
      Prev = S;
    }
    // The nearest statement before Child in this block that writes V decides: an assignment of
    // V is the answer; any other write (in a branch, a nested block) leaves nothing proved.
    for (auto It = std::find(Block->body_rbegin(), Block->body_rend(), Prev); Prev && It != Block->body_rend(); ++It) {
      const Stmt *S = *It;
      bool Writes = false;
      for (const Expr *Val : V.Values)
        if (!Before(Val->getBeginLoc(), S->getBeginLoc()) && !Before(S->getEndLoc(), Val->getBeginLoc()))
          Writes = true;
      if (!Writes)
        continue;
      Assigned = AssignedValue(S);
      if (const auto *DS = dyn_cast<DeclStmt>(S); DS && DS->isSingleDecl() && DS->getSingleDecl() == VD)
        Assigned = VD->getInit();
      if (!Assigned)
        return nullptr;
      break;
    }
  }
  if (!Assigned)
    return nullptr;
  for (const Expr *Val : V.Values) {
    if (Val == Assigned)
      continue;
    SourceLocation L = Val->getBeginLoc();
    // The value that reads Use (`t = (t - t.mean()) / t.std()`, `t = t.permute(...)`) is written
    // after the read; inside a loop around the use it reaches the next iteration's read.
    bool Reads = !Before(Use->getBeginLoc(), L) && !Before(Val->getEndLoc(), Use->getBeginLoc());
    if (Reads && !Loops.empty())
      return nullptr;
    if (Reads)
      continue;
    if (Before(Assigned->getBeginLoc(), L) && Before(L, Use->getBeginLoc()))
      return nullptr; // written between
    if (Before(Use->getBeginLoc(), L))
      for (const Stmt *Loop : Loops)
        if (!Before(L, Loop->getBeginLoc()) && !Before(Loop->getEndLoc(), L))
          return nullptr; // written later in a loop around the use: reaches it on the next iteration
  }
  return Assigned;
}

bool writeNeverRead(const Expr *Value, const VarDecl *VD, ASTContext &Ctx) {
  if (!Value || !VD || !VD->isLocalVarDecl() || VD->isStaticLocal())
    return false;
  const VarValues &V = valuesOf(VD, Ctx);
  if (!V.Known || V.EscapedAt.isValid() || !llvm::is_contained(V.Values, Value))
    return false;
  const FunctionDecl *FD = HotCodeAnalysis::get(Ctx).enclosingFunction(Value);
  if (!FD || !FD->getBody())
    return false;
  // Every read of VD: the only write reaching it is another one.
  bool Read = false, Reached = false;
  std::vector<const Stmt *> Work{FD->getBody()};
  while (!Work.empty() && !Reached) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    if (const VarDecl *To = nullptr; const Expr *R = assignedValue(S, &To))
      if (To == VD) {
        Work.push_back(R); // a write, not a read
        continue;
      }
    if (const auto *R = dyn_cast<DeclRefExpr>(S); R && R->getDecl() == VD) {
      Read = true;
      const Expr *Only = onlyReachingAssignment(R, VD, Ctx);
      Reached = !Only || Only == Value;
      continue;
    }
    if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
      for (const LambdaCapture &C : Lambda->captures())
        if (C.capturesVariable() && C.getCapturedVar() == VD)
          return false; // read whenever the lambda runs
      Work.push_back(Lambda->getBody());
      continue;
    }
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return Read && !Reached;
}

namespace {
bool isStdCall(const FunctionDecl *F, llvm::StringRef Name) {
  return F && F->isInStdNamespace() && F->getDeclName().isIdentifier() && F->getName() == Name;
}
} // namespace

const DeclRefExpr *collatedVector(const Expr *E) {
  const auto *C = dyn_cast_or_null<CallExpr>(stripTemporaries(E));
  if (!C || isa<CXXMemberCallExpr, CXXOperatorCallExpr>(C) || C->getNumArgs() < 1)
    return nullptr;
  const FunctionDecl *F = C->getDirectCallee();
  if (!F || !F->getDeclName().isIdentifier() || !llvm::is_contained({"stack", "cat", "concat"}, F->getName()) ||
      !isTorchDecl(F))
    return nullptr;
  const Expr *List = stripTemporaries(C->getArg(0)); // the TensorList (ArrayRef) made from the vector
  if (const auto *Conv = dyn_cast<CXXConstructExpr>(List); Conv && Conv->getNumArgs() == 1)
    List = stripTemporaries(Conv->getArg(0));
  const auto *Ref = dyn_cast<DeclRefExpr>(List);
  return Ref && isa<VarDecl>(Ref->getDecl()) ? Ref : nullptr;
}

std::vector<TransformWrite> transformWritesOf(const VarDecl *Parts, const Expr *Use, ASTContext &Ctx) {
  const HotCodeAnalysis &H = HotCodeAnalysis::get(Ctx);
  const FunctionDecl *F = H.enclosingFunction(Use);
  std::vector<TransformWrite> Out;
  if (!F || !F->getBody() || !Parts || !Parts->isLocalVarDecl())
    return Out;
  for (const DeclRefExpr *R : referencesTo(F->getBody(), Parts)) {
    if (R == stripTemporaries(Use))
      continue;
    // std::back_inserter(parts), the third argument of std::transform.
    const CallExpr *Ins = nullptr;
    for (const Stmt *P = H.parentOf(R); P && !Ins; P = H.parentOf(P))
      if (!isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr>(P))
        Ins = dyn_cast<CallExpr>(P);
    if (!Ins || !isStdCall(Ins->getDirectCallee(), "back_inserter"))
      return {};
    const CallExpr *T = nullptr;
    for (const Stmt *P = H.parentOf(Ins); P && !T; P = H.parentOf(P))
      if (const auto *C = dyn_cast<CallExpr>(P))
        T = C;
      else if (!isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr, CXXConstructExpr>(P))
        break;
    if (!T || !isStdCall(T->getDirectCallee(), "transform") || T->getNumArgs() != 4 ||
        stripTemporaries(T->getArg(2)) != stripTemporaries(Ins))
      return {};
    // transform(src.begin(), src.end(), ...).
    const auto *Begin = dyn_cast<CXXMemberCallExpr>(stripTemporaries(T->getArg(0)));
    if (!Begin || !Begin->getMethodDecl() || !Begin->getMethodDecl()->getDeclName().isIdentifier() ||
        Begin->getMethodDecl()->getName() != "begin" || !Begin->getImplicitObjectArgument())
      return {};
    // The lambda returns its element, or a member of it (in a generic lambda, `[](auto &e)`, a
    // dependent member).
    const auto *L = dyn_cast<LambdaExpr>(stripTemporaries(T->getArg(3)));
    const auto *Body = L ? dyn_cast_or_null<CompoundStmt>(L->getBody()) : nullptr;
    const auto *Ret = Body && Body->size() == 1 ? dyn_cast<ReturnStmt>(Body->body_front()) : nullptr;
    const CXXMethodDecl *Call = L ? L->getCallOperator() : nullptr;
    if (!Ret || !Ret->getRetValue() || !Call || Call->getNumParams() != 1)
      return {};
    const Expr *V = stripTemporaries(Ret->getRetValue());
    std::string Member;
    for (unsigned Depth = 0;; ++Depth) {
      std::string Name;
      if (const auto *M = dyn_cast<MemberExpr>(V)) {
        Name = M->getMemberDecl()->getDeclName().isIdentifier() ? M->getMemberDecl()->getName().str() : "?";
        V = stripTemporaries(M->getBase());
      } else if (const auto *D = dyn_cast<CXXDependentScopeMemberExpr>(V); D && !D->isImplicitAccess()) {
        Name = D->getMember().isIdentifier() ? D->getMember().getAsIdentifierInfo()->getName().str() : "?";
        V = stripTemporaries(D->getBase());
      } else {
        break;
      }
      // The outermost member only (`e.data` gives "data"; `e.data.x` is no part the caller names).
      Member = Depth == 0 ? Name : "?";
    }
    const auto *PR = dyn_cast<DeclRefExpr>(V);
    if (!PR || PR->getDecl() != Call->getParamDecl(0))
      return {};
    Out.push_back(TransformWrite{Begin->getImplicitObjectArgument(), Member});
  }
  return Out;
}

} // namespace torchlint
