#include "model/TUSummary.h"
#include "analysis/Autograd.h"
#include "analysis/ConstantData.h"
#include "analysis/DeviceProvenance.h"
#include "analysis/ProgramFacts.h"
#include "analysis/HostWidening.h"
#include "analysis/HotCode.h"
#include "analysis/LocalDataflow.h"
#include "analysis/NnModules.h"
#include "analysis/TorchTypes.h"
#include "analysis/TUFacts.h"
#include "core/AstWalk.h"
#include "core/Recovery.h"
#include "utils/ExprStrip.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "analysis/LoopTraversal.h"
#include "analysis/RarePath.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include <functional>
#include "clang/Index/USRGeneration.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace torchlint::model {

const char *stepKindName(StepKind K) {
  switch (K) {
  case StepKind::Forward:
    return "forward";
  case StepKind::Backward:
    return "backward";
  case StepKind::OptimizerStep:
    return "optimizer-step";
  case StepKind::Loss:
    return "loss";
  }
  return "forward";
}

Position positionOf(const SourceManager &SM, SourceLocation Loc) {
  Position P;
  if (Loc.isInvalid())
    return P;
  PresumedLoc PL = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  if (PL.isInvalid())
    return P;
  llvm::SmallString<256> Abs(PL.getFilename());
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  P.File = std::string(Abs);
  P.Line = PL.getLine();
  P.Column = PL.getColumn();
  return P;
}

namespace {

const CXXMethodDecl *lambdaOperator(const Decl *D) {
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(D);
  return M && M->getParent()->isLambda() ? M : nullptr;
}

/// The step a call to Callee makes, if any.
std::optional<StepKind> stepOf(const FunctionDecl *Callee, const Expr *Call) {
  if (!Callee || !Callee->getDeclName().isIdentifier()) {
    if (Call && moduleOfForwardCall(Call))
      return StepKind::Forward;
    // In a template's pattern, a member call on a dependent object (`encoder->forward(images)`
    // with `ModuleHolder<TEncoder> encoder`, `loss.backward()` of a dependent loss): named as the
    // step it is. The pattern and its instantiations share one USR, and the model keeps the
    // pattern's facts: without this, a validation loop in a function template runs no step.
    if (const auto *C = Call ? dyn_cast<CallExpr>(Call) : nullptr) {
      const Expr *E = C->getCallee()->IgnoreParenImpCasts();
      std::string Name;
      if (const auto *DM = dyn_cast<CXXDependentScopeMemberExpr>(E))
        Name = DM->getMember().getAsString();
      else if (const auto *UM = dyn_cast<UnresolvedMemberExpr>(E))
        Name = UM->getMemberName().getAsString();
      if (Name == "forward")
        return StepKind::Forward;
      if (Name == "backward")
        return StepKind::Backward;
    }
    return std::nullopt;
  }
  llvm::StringRef N = Callee->getName();
  const auto *M = dyn_cast<CXXMethodDecl>(Callee);
  if (N == "forward" && M && isModuleOrDerived(M->getParent()))
    return StepKind::Forward;
  if (Call && moduleOfForwardCall(Call))
    return StepKind::Forward;
  if (N == "step" && M && isOptimizerClass(M->getParent()))
    return StepKind::OptimizerStep;
  if (!isTorchDecl(Callee))
    return std::nullopt;
  if (N == "backward")
    return StepKind::Backward;
  if (N.contains("loss") || N == "cross_entropy" || N == "binary_cross_entropy" ||
      N == "binary_cross_entropy_with_logits" || N == "kl_div")
    return StepKind::Loss;
  return std::nullopt;
}

/// How many arguments the user wrote (default arguments left out).
template <typename Range> unsigned writtenArgs(Range Args) {
  unsigned N = 0;
  for (const Expr *A : Args)
    N += !isa<CXXDefaultArgExpr>(A);
  return N;
}

/// The constructors the user declared in Class that N arguments may call (copy and move
/// constructors left out): what library code that forwards N arguments to Class's constructor
/// (std::make_shared) calls, when the AST does not say which.
std::vector<const CXXConstructorDecl *> constructorsTaking(const CXXRecordDecl *Class, unsigned N) {
  std::vector<const CXXConstructorDecl *> Out;
  if (!Class || !(Class = Class->getDefinition()))
    return Out;
  for (const CXXConstructorDecl *C : Class->ctors())
    if (!C->isImplicit() && !C->isCopyOrMoveConstructor() && C->getMinRequiredArguments() <= N &&
        (C->isVariadic() || N <= C->getNumParams()))
      Out.push_back(C);
  return Out;
}

/// The constructor of Class that a `new Class(...)` in S calls (libtorch's ModuleHolder builds its
/// module so), or null.
const CXXConstructorDecl *constructorNewedIn(const Stmt *S, const CXXRecordDecl *Class, int Depth = 0) {
  if (!S || Depth > 16)
    return nullptr;
  if (const auto *N = dyn_cast<CXXNewExpr>(S))
    if (const CXXConstructExpr *C = N->getConstructExpr())
      if (C->getConstructor() && C->getConstructor()->getParent()->getCanonicalDecl() == Class->getCanonicalDecl())
        return C->getConstructor();
  for (const Stmt *Child : S->children())
    if (const CXXConstructorDecl *R = constructorNewedIn(Child, Class, Depth + 1))
      return R;
  return nullptr;
}

/// An empty holder's or a shared module's argument (`Net(nullptr)`, `Net(std::make_shared<NetImpl>())`):
/// the holder builds no module from it.
bool emptyOrShared(const Expr *A) {
  QualType T = A->getType().getNonReferenceType().getCanonicalType();
  if (T->isNullPtrType())
    return true;
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  return RD && RD->isInStdNamespace() && RD->getDeclName().isIdentifier() && RD->getName() == "shared_ptr";
}

/// Where a field's (or a parameter's) tensors live, from an analysis/DeviceProvenance answer.
FieldDevice fieldDeviceOf(DeviceKind K) {
  return K == DeviceKind::CPU ? FieldDevice::Host : K == DeviceKind::Accelerator ? FieldDevice::Device : FieldDevice::Unknown;
}

/// The writes of one key (a field's values, a parameter's arguments, a function's return values)
/// merged into one FieldFacts: its device, and for a host answer that rests on other keys
/// (HostAssumptions), those keys.
class WriteMerger {
public:
  WriteMerger(ASTContext &Ctx, FieldFacts &F, const FieldDecl *Self = nullptr) : Ctx(Ctx), F(F), Self(Self) {}

  /// Adds one value written; a value that holds no tensor (an empty list) adds nothing.
  void add(const Expr *E) {
    // One question with the assumptions: a device the TU proves needs none of them (If stays
    // empty), and a host answer that rests on some lists them.
    HostAssumptions If;
    If.AcrossFiles = true;
    std::optional<DeviceKind> K = deviceOfStored(E, Self, Ctx, &If);
    if (!K)
      return;
    addDevice(fieldDeviceOf(*K), *K == DeviceKind::CPU ? hostKeys(If) : std::vector<std::string>{});
  }
  void addDevice(FieldDevice D, const std::vector<std::string> &Keys = {}) {
    F.Device = !Any || F.Device == D ? D : FieldDevice::Unknown;
    Any = true;
    for (const std::string &U : Keys)
      if (!llvm::is_contained(F.IfHost, U))
        F.IfHost.push_back(U);
    if (F.Device != FieldDevice::Host)
      F.IfHost.clear();
  }
  /// Whether any value holding tensors was added.
  bool any() const { return Any; }

private:
  ASTContext &Ctx;
  FieldFacts &F;
  const FieldDecl *Self;
  bool Any = false;
};

class SummaryBuilder : public LoopTraversal<SummaryBuilder> {
public:
  SummaryBuilder(ASTContext &Ctx, TUSummary &Out) : Ctx(Ctx), SM(Ctx.getSourceManager()), Out(Out) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    if (!isa<TranslationUnitDecl>(D) && isLibraryLocation(SM, D->getLocation()))
      return true;
    if (auto *RD = dyn_cast<CXXRecordDecl>(D); RD && RD->isThisDeclarationADefinition() && !RD->isLambda())
      noteModule(RD);
    auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD || !FD->doesThisDeclarationHaveABody() || lambdaOperator(FD))
      return RecursiveASTVisitor::TraverseDecl(D);
    size_t Index = beginFunction(FD);
    noteReturnFlow(FD, Out.Functions[Index]);
    noteReturnDevices(FD);
    Frames.push_back({Index, {}, 0});
    bool R = RecursiveASTVisitor::TraverseDecl(D);
    Frames.pop_back();
    return R;
  }

  bool TraverseLambdaExpr(LambdaExpr *L, DataRecursionQueue * = nullptr) {
    const CXXMethodDecl *Op = L->getCallOperator();
    // The lambda runs where it is written (a callback of a loop body usually runs there): an edge
    // from the enclosing function with the loop around the lambda.
    if (!Frames.empty())
      addCall(usrOf(Op), L, /*Virtual=*/false);
    size_t Index = beginFunction(Op);
    Frames.push_back({Index, {}, 0});
    bool R = TraverseStmt(L->getBody());
    Frames.pop_back();
    return R;
  }

  // Branches: what they hold does not run on every iteration (or every call).
  bool TraverseIfStmt(IfStmt *S, DataRecursionQueue * = nullptr) {
    if ((S->getInit() && !TraverseStmt(S->getInit())) || !TraverseStmt(S->getConditionVariableDeclStmt()) ||
        !TraverseStmt(S->getCond()))
      return false;
    if (S->isConstexpr()) // decided at compile time: the taken branch runs every time
      return TraverseStmt(S->getThen()) && TraverseStmt(S->getElse());
    return conditionally([&] { return TraverseStmt(S->getThen()) && TraverseStmt(S->getElse()); });
  }
  bool TraverseSwitchStmt(SwitchStmt *S, DataRecursionQueue * = nullptr) {
    if ((S->getInit() && !TraverseStmt(S->getInit())) || !TraverseStmt(S->getCond()))
      return false;
    return conditionally([&] { return TraverseStmt(S->getBody()); });
  }
  bool TraverseConditionalOperator(ConditionalOperator *C, DataRecursionQueue * = nullptr) {
    if (!TraverseStmt(C->getCond()))
      return false;
    return conditionally([&] { return TraverseStmt(C->getTrueExpr()) && TraverseStmt(C->getFalseExpr()); });
  }
  bool TraverseBinaryOperator(BinaryOperator *B, DataRecursionQueue * = nullptr) {
    if (!B->isLogicalOp())
      return RecursiveASTVisitor::TraverseBinaryOperator(B, nullptr);
    if (!TraverseStmt(B->getLHS()))
      return false;
    return conditionally([&] { return TraverseStmt(B->getRHS()); });
  }

  bool VisitCallExpr(CallExpr *C) {
    if (Frames.empty())
      return true;
    const FunctionDecl *Callee = C->getDirectCallee();
    if (auto K = stepOf(Callee, C)) {
      Frame &F = Frames.back();
      Out.Functions[F.Index].Steps.push_back({*K, currentLoop(), positionOf(SM, C->getBeginLoc()).Line});
    }
    if (!Callee) {
      // A call through a function pointer whose values are visible: `auto fn = flag ? a : b; fn(x);`
      // calls a or b.
      for (const FunctionDecl *T : pointerTargets(C->getCallee()))
        addCall(usrOf(T), C, false);
      return true;
    }
    // A std::function (or any callable object) named by a local initialised with a lambda.
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(C);
        Op && Op->getOperator() == OO_Call && isLibraryLocation(SM, Callee->getLocation()))
      if (const FunctionDecl *Target = visibleCallable(Op->getArg(0))) {
        addCall(usrOf(Target), C, false);
        return true;
      }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C))
      if (const CXXMethodDecl *MD = MC->getMethodDecl(); MD && isTorchDecl(MD))
        noteModuleMove(MC, MD);
    // `MyFn::apply(x)` of a custom autograd function: libtorch calls MyFn::forward() there and
    // MyFn::backward() in the step's backward pass.
    for (const CXXMethodDecl *F : autogradFunctionMethodsBehind(C))
      addCall(usrOf(F), C, false);
    if (isLibraryLocation(SM, Callee->getLocation())) {
      // std::make_shared<NetImpl>(3): NetImpl's constructor, called from the library's template,
      // with the arguments written (where its tensor parameters live, when it is the only one).
      std::vector<const CXXConstructorDecl *> Ctors = constructorsBehind(C);
      for (const CXXConstructorDecl *Ctor : Ctors) {
        if (addCall(usrOf(Ctor), C, false))
          noteConstantArgs(llvm::ArrayRef(C->getArgs(), C->getNumArgs()));
      }
      if (Ctors.size() == 1)
        addArgumentDevices(Ctors.front(), llvm::ArrayRef(C->getArgs(), C->getNumArgs()));
      // `net(x)` on a holder of NetImpl: ModuleHolder::operator() calls NetImpl::forward().
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(C); Op && Op->getOperator() == OO_Call)
        for (const CXXMethodDecl *F : forwardsBehind(Op))
          addCall(usrOf(F), C, F->isVirtual());
      return true;
    }
    bool Added = addCall(usrOf(Callee), C, isVirtualDispatch(C));
    unsigned Shift = isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(Callee) ? 1 : 0;
    if (Added)
      noteConstantArgs(llvm::ArrayRef(C->getArgs(), C->getNumArgs()).drop_front(Shift));
    addArgumentDevices(Callee, llvm::ArrayRef(C->getArgs(), C->getNumArgs()).drop_front(Shift));
    return true;
  }

  /// Each tensor argument (or container of tensors) of a call of a user function or constructor,
  /// as a write of its parameter (paramKey): where the project's calls put a parameter
  /// (DeviceProvenance.h HostAssumptions::Params).
  void addArgumentDevices(const FunctionDecl *Callee, llvm::ArrayRef<const Expr *> Args) {
    for (unsigned I = 0; I < Callee->getNumParams() && I < Args.size(); ++I) {
      const ParmVarDecl *PV = Callee->getParamDecl(I);
      if (!deviceFollowsCallSites(PV, Ctx, /*Body=*/false))
        continue;
      const Expr *Arg = Args[I];
      if (isa<CXXDefaultArgExpr>(Arg))
        continue;
      Arg = stripCopies(Arg); // a parameter taken by value: the copy constructor's argument
      FieldFacts F{paramKey(Callee, I), Callee->getQualifiedNameAsString() + "(" + PV->getName().str() + ")",
                   FieldDevice::Unknown};
      if (F.USR.empty())
        continue;
      F.In = Out.Functions[Frames.back().Index].USR;
      WriteMerger W(Ctx, F);
      W.add(Arg);
      if (W.any())
        Out.Fields.push_back(std::move(F));
    }
  }

  /// The return values of a user function that returns a tensor by value, as writes of its
  /// returnKey: a call of it in another TU lives where they do.
  void noteReturnDevices(const FunctionDecl *FD) {
    if (!returnFollowsDefinition(FD) || FD->isDependentContext())
      return;
    FieldFacts F{returnKey(FD), FD->getQualifiedNameAsString() + "()", FieldDevice::Unknown};
    if (F.USR.empty())
      return;
    F.In = usrOf(FD);
    WriteMerger W(Ctx, F);
    for (const ReturnStmt *R : returnsOf(FD->getBody())) {
      if (R->getRetValue())
        W.add(R->getRetValue());
      else
        W.addDevice(FieldDevice::Unknown);
    }
    if (W.any())
      Out.Fields.push_back(std::move(F));
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *C) {
    if (Frames.empty() || !C->getConstructor())
      return true;
    for (const CXXConstructorDecl *Ctor : constructorsBehind(C))
      addCall(usrOf(Ctor), C, false);
    if (isLibraryLocation(SM, C->getConstructor()->getLocation()))
      return true;
    if (addCall(usrOf(C->getConstructor()), C, false))
      noteConstantArgs(llvm::ArrayRef(C->getArgs(), C->getNumArgs()));
    addArgumentDevices(C->getConstructor(), llvm::ArrayRef(C->getArgs(), C->getNumArgs()));
    return true;
  }

private:
  friend class LoopTraversal<SummaryBuilder>; // calls withLoop

  /// A module class of the user's code behind a holder class (NetImpl for a TORCH_MODULE(Net)).
  const CXXRecordDecl *userHeldModule(const CXXRecordDecl *Holder) const {
    const CXXRecordDecl *X = heldModuleOf(Holder);
    return X && !isLibraryLocation(SM, X->getLocation()) ? X : nullptr;
  }

  /// The user's constructors that the library runs when C constructs a holder of a user module
  /// (ModuleHolder<NetImpl>: `Net net(3)`, `Net(3)`, `Net net;`, through the constructors that
  /// TORCH_MODULE inherits): NetImpl's constructor that the holder's `new NetImpl(...)` calls (by
  /// the holder's arguments where that is not in the AST). None for an empty holder
  /// (`Net net{nullptr}`), one that shares a module, a copy or a move.
  std::vector<const CXXConstructorDecl *> constructorsBehind(const CXXConstructExpr *C) const {
    const CXXConstructorDecl *Ctor = C->getConstructor();
    if (!Ctor || Ctor->isCopyOrMoveConstructor())
      return {};
    if (Ctor->isInheritingConstructor())
      if (const CXXConstructorDecl *Base = Ctor->getInheritedConstructor().getConstructor())
        Ctor = Base;
    // A holder constructor the user wrote is summarised itself (its ModuleHolder initializer).
    if (!Ctor->isImplicit() && !isLibraryLocation(SM, Ctor->getLocation()))
      return {};
    const CXXRecordDecl *X = userHeldModule(Ctor->getParent());
    if (!X)
      return {};
    if (Ctor->isDefaultConstructor())
      return constructorsTaking(X, 0);
    if (!Ctor->getPrimaryTemplate()) // not the forwarding template: ModuleHolder(nullptr_t), (shared_ptr<X>)
      return {};
    const FunctionDecl *Def = nullptr;
    if (Ctor->hasBody(Def))
      if (const auto *D = dyn_cast<CXXConstructorDecl>(Def)) {
        for (const CXXCtorInitializer *I : D->inits())
          if (const CXXConstructorDecl *R = constructorNewedIn(I->getInit(), X))
            return {R};
        if (const CXXConstructorDecl *R = constructorNewedIn(D->getBody(), X))
          return {R};
      }
    return constructorsTaking(X, writtenArgs(C->arguments()));
  }

  /// The user's constructors that std::make_shared<X>(args) / std::make_unique<X>(args) runs (X a
  /// class of the user's code, or a holder of one: its module's), by the number of arguments.
  std::vector<const CXXConstructorDecl *> constructorsBehind(const CallExpr *C) const {
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD || !FD->isInStdNamespace() || !FD->getDeclName().isIdentifier() ||
        (FD->getName() != "make_shared" && FD->getName() != "make_unique"))
      return {};
    const TemplateArgumentList *TA = FD->getTemplateSpecializationArgs();
    if (!TA || TA->size() < 1 || (*TA)[0].getKind() != TemplateArgument::Type)
      return {};
    const CXXRecordDecl *T = (*TA)[0].getAsType()->getAsCXXRecordDecl();
    if (!T)
      return {};
    unsigned N = writtenArgs(C->arguments());
    if (const CXXRecordDecl *X = heldModuleOf(T)) {
      if (N == 1 && emptyOrShared(C->getArg(0)))
        return {};
      T = X;
    }
    if (isLibraryLocation(SM, T->getLocation()))
      return {};
    return constructorsTaking(T, N);
  }

  /// The forward() of a user module that `m(args)` on its holder runs (ModuleHolder::operator()
  /// calls impl_->forward(args)): those of the module class (or of the nearest base that declares
  /// one) that take that many arguments.
  std::vector<const CXXMethodDecl *> forwardsBehind(const CXXOperatorCallExpr *Op) const {
    if (Op->getNumArgs() < 1)
      return {};
    const CXXRecordDecl *X = userHeldModule(
        Op->getArg(0)->getType().getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl());
    unsigned N = writtenArgs(Op->arguments()) - 1;
    for (int Depth = 0; X && (X = X->getDefinition()) && Depth < 16; ++Depth) {
      std::vector<const CXXMethodDecl *> Out;
      bool Declares = false;
      for (const CXXMethodDecl *M : X->methods())
        if (M->getDeclName().isIdentifier() && M->getName() == "forward") {
          Declares = true;
          if (M->getMinRequiredArguments() <= N && (M->isVariadic() || N <= M->getNumParams()))
            Out.push_back(M);
        }
      if (Declares)
        return Out;
      const CXXRecordDecl *Base = nullptr;
      for (const CXXBaseSpecifier &B : X->bases())
        if (const CXXRecordDecl *R = B.getType()->getAsCXXRecordDecl(); R && !isLibraryLocation(SM, R->getLocation()))
          Base = R;
      X = Base;
    }
    return {};
  }
  struct Frame {
    size_t Index;                                    // into Out.Functions
    std::vector<std::pair<int, unsigned>> LoopStack; // loop index, condition depth at its entry
    unsigned CondDepth;
  };

  size_t beginFunction(const FunctionDecl *FD) {
    Function F;
    F.USR = usrOf(FD);
    Position P = positionOf(SM, FD->getLocation());
    F.File = P.File;
    F.Line = P.Line;
    if (const CXXMethodDecl *L = lambdaOperator(FD))
      F.Name = "the lambda at " + llvm::sys::path::filename(P.File).str() + ":" +
               std::to_string(positionOf(SM, L->getParent()->getLocation()).Line);
    else
      F.Name = FD->getQualifiedNameAsString();
    F.Forward = isModuleForward(FD);
    F.TestBody = isTestBody(FD);
    std::vector<GradientCallee> Elsewhere;
    F.NeedsGradients = mayNeedGradients(FD, Elsewhere);
    if (!F.NeedsGradients)
      for (const GradientCallee &E : Elsewhere) {
        std::string U = usrOf(E.Callee);
        if (U.empty()) {
          F.NeedsGradients = true; // not nameable across files: unknown
          F.GradientsElsewhere.clear();
          break;
        }
        F.GradientsElsewhere.push_back(gradientCalleeKey(std::move(U), E.HandedNoTensors));
      }
    if (const auto *M = dyn_cast<CXXMethodDecl>(FD))
      for (const CXXMethodDecl *O : M->overridden_methods())
        F.Overrides.push_back(usrOf(O));
    Out.Functions.push_back(std::move(F));
    return Out.Functions.size() - 1;
  }

  /// Call::ConstArgs of the call just added (addCall): which arguments are compile-time
  /// constants of a number type.
  void noteConstantArgs(llvm::ArrayRef<const Expr *> Args) {
    if (Frames.empty() || Out.Functions[Frames.back().Index].Calls.empty())
      return;
    std::string Flags;
    bool Any = false;
    for (const Expr *A : Args) {
      if (const auto *D = dyn_cast_or_null<CXXDefaultArgExpr>(A))
        A = D->getExpr(); // the default written in the declaration
      bool K = A && A->getType()->isArithmeticType() && isConstantData(A, &Ctx);
      bool Null = A && !K &&
                  (((A->getType()->isPointerType() || A->getType()->isNullPtrType()) &&
                    A->IgnoreParenImpCasts()->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull) !=
                        Expr::NPCK_NotNull) ||
                   isEmptyOptional(A)); // `nullopt` for an optional parameter (RarePath.h nonNullGuards)
      Flags += K ? '1' : Null ? 'n' : '0';
      Any |= K || Null;
    }
    Out.Functions[Frames.back().Index].Calls.back().ConstArgs = Any ? Flags : "";
  }

  int currentLoop() const {
    const Frame &F = Frames.back();
    return F.LoopStack.empty() ? -1 : F.LoopStack.back().first;
  }

  /// Under an if/switch/?:/&& of the innermost loop's body (of the function's body outside loops):
  /// what a call or a loop statement here records as Conditional.
  bool underCondition() const {
    const Frame &F = Frames.back();
    return F.CondDepth > (F.LoopStack.empty() ? 0 : F.LoopStack.back().second);
  }

  /// False when no call was added (no USR, or outside any function).
  bool addCall(std::string USR, const Stmt *At, bool Virtual) {
    if (USR.empty() || Frames.empty())
      return false;
    Frame &F = Frames.back();
    Position P = positionOf(SM, At->getBeginLoc());
    Call C;
    C.Callee = std::move(USR);
    C.File = P.File;
    C.Line = P.Line;
    C.Column = P.Column;
    C.Loop = currentLoop();
    C.Virtual = Virtual;
    if ((C.Conditional = underCondition()))
      if (std::optional<RarePath> R = localRarePath(At, Ctx)) {
        C.Rare = R->Reason;
        C.RareOnce = R->OncePerInterval;
      }
    Out.Functions[F.Index].Calls.push_back(std::move(C));
    return true;
  }

  template <typename BodyFn> bool withLoop(const Stmt *S, BodyFn Body) {
    if (Frames.empty())
      return Body();
    Frame &F = Frames.back();
    Function &Fn = Out.Functions[F.Index];
    Position P = positionOf(SM, S->getBeginLoc());
    Loop L;
    L.File = P.File;
    L.Line = P.Line;
    L.Column = P.Column;
    L.Parent = currentLoop();
    L.Bounded = isBoundedLoop(S);
    if ((L.Conditional = underCondition()))
      if (std::optional<RarePath> R = localRarePath(S, Ctx))
        L.Rare = R->Reason;
    Fn.Loops.push_back(L);
    F.LoopStack.push_back({static_cast<int>(Fn.Loops.size() - 1), F.CondDepth});
    bool R = Body();
    Frames.back().LoopStack.pop_back();
    return R;
  }

  template <typename BodyFn> bool conditionally(BodyFn Body) {
    if (Frames.empty())
      return Body();
    ++Frames.back().CondDepth;
    bool R = Body();
    --Frames.back().CondDepth;
    return R;
  }

  /// The functions a function pointer may hold where all its values are visible: a local whose
  /// initializer and assignments are function names, `&f`, or conditionals of them. Empty when
  /// one is anything else.
  std::vector<const FunctionDecl *> pointerTargets(const Expr *Callee) {
    std::vector<const FunctionDecl *> Out;
    std::function<bool(const Expr *, unsigned)> Add = [&](const Expr *E, unsigned Depth) {
      if (!E || Depth > 6)
        return false;
      E = E->IgnoreParenImpCasts();
      if (const auto *U = dyn_cast<UnaryOperator>(E); U && (U->getOpcode() == UO_AddrOf || U->getOpcode() == UO_Deref))
        return Add(U->getSubExpr(), Depth + 1);
      if (const auto *CO = dyn_cast<ConditionalOperator>(E))
        return Add(CO->getTrueExpr(), Depth + 1) && Add(CO->getFalseExpr(), Depth + 1);
      const auto *R = dyn_cast<DeclRefExpr>(E);
      if (!R)
        return false;
      if (const auto *FD = dyn_cast<FunctionDecl>(R->getDecl())) {
        const FunctionDecl *Def = FD->getDefinition();
        Out.push_back(Def ? Def : FD);
        return true;
      }
      const auto *V = dyn_cast<VarDecl>(R->getDecl());
      if (!V || Depth > 0 || !V->hasLocalStorage() || isa<ParmVarDecl>(V))
        return false;
      const VarValues &Vals = valuesOf(V, Ctx);
      if (!Vals.Known || Vals.Values.empty())
        return false;
      for (const Expr *Val : Vals.Values)
        if (!Add(Val, Depth + 1))
          return false;
      return true;
    };
    if (!Add(Callee, 0))
      Out.clear();
    return Out;
  }

  /// The lambda a callable object denotes where that is visible: a local (a std::function or a
  /// lambda's closure) initialised with a lambda and never assigned another.
  const FunctionDecl *visibleCallable(const Expr *Obj) {
    const auto *R = dyn_cast<DeclRefExpr>(Obj->IgnoreParenImpCasts());
    const auto *V = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
    if (!V || !V->hasLocalStorage() || !V->getInit())
      return nullptr;
    const Expr *Init = stripTemporaries(V->getInit());
    for (unsigned I = 0; I < 4 && Init; ++I) {
      if (const auto *L = dyn_cast<LambdaExpr>(Init))
        return L->getCallOperator();
      if (const auto *C = dyn_cast<CXXConstructExpr>(Init); C && C->getNumArgs() >= 1)
        Init = stripTemporaries(C->getArg(0));
      else if (const auto *E = dyn_cast<CastExpr>(Init))
        Init = stripTemporaries(E->getSubExpr());
      else
        break;
    }
    return nullptr;
  }

  /// Where the tensors FD returns come from (functions returning a tensor only; a data set's
  /// get(): each element of the Examples it returns, under exampleKey).
  void noteReturnFlow(const FunctionDecl *FD, const Function &F) {
    if (F.USR.empty() || FD->getReturnType()->isDependentType())
      return;
    auto Add = [&](std::string Key, const std::vector<TensorOrigin> &Origins) {
      TensorFlow Flow;
      Flow.USR = std::move(Key);
      Flow.Name = F.Name;
      Flow.File = F.File;
      Flow.Line = F.Line;
      Flow.Sources = tensorSources(Origins, Ctx);
      if (Flow.Sources.empty())
        Flow.Sources.emplace_back(); // no return value seen: unknown
      Out.Flows.push_back(std::move(Flow));
    };
    if (isDatasetGet(FD)) {
      for (unsigned I = 0; I < 2; ++I)
        Add(exampleKey(FD, I), exampleOriginsOf(FD, I, Ctx));
    } else if (isTensorType(FD->getReturnType().getNonReferenceType())) {
      Add(F.USR, returnOriginsOf(FD, Ctx));
    }
  }

  void noteModule(const CXXRecordDecl *RD) {
    if (!isModuleOrDerived(RD) || isTorchDecl(RD))
      return;
    ModuleFacts M;
    M.USR = usrOf(RD);
    M.Name = RD->getQualifiedNameAsString();
    Position P = positionOf(SM, RD->getLocation());
    M.File = P.File;
    M.Line = P.Line;
    for (const FieldDecl *F : RD->fields())
      if (const CXXRecordDecl *Impl = moduleImplOf(F->getType()); Impl && convDims(Impl) > 0)
        M.HasConvolution = true;
    Out.Modules.push_back(std::move(M));
    noteModuleBases(RD);
  }

  /// The class's registered tensors stay where they were registered unless a module holding them
  /// moves: the class's key rests on every base's (a `to()` on a `Base&` may be this class's),
  /// and libtorch's base classes, which no TU defines, start at host too.
  void noteModuleBases(const CXXRecordDecl *RD) {
    FieldFacts F = moved(RD, FieldDevice::Host);
    if (F.USR.empty())
      return;
    llvm::SmallVector<const CXXRecordDecl *, 4> Work{RD};
    llvm::SmallPtrSet<const CXXRecordDecl *, 8> Seen;
    while (!Work.empty()) {
      const CXXRecordDecl *C = Work.pop_back_val();
      if (!C || !(C = C->getDefinition()) || !Seen.insert(C).second)
        continue;
      for (const CXXBaseSpecifier &B : C->bases()) {
        const CXXRecordDecl *BD = B.getType()->getAsCXXRecordDecl();
        if (!BD || !isModuleOrDerived(BD))
          continue;
        FieldFacts Base = moved(BD, FieldDevice::Host);
        if (Base.USR.empty())
          continue;
        if (!llvm::is_contained(F.IfHost, Base.USR))
          F.IfHost.push_back(Base.USR);
        if (isTorchDecl(BD))
          Out.Fields.push_back(std::move(Base));
        Work.push_back(BD);
      }
    }
    Out.Fields.push_back(std::move(F));
  }

  /// A write of RD's movedKey.
  static FieldFacts moved(const CXXRecordDecl *RD, FieldDevice D) {
    return FieldFacts{movedKey(RD), RD->getQualifiedNameAsString() + " (moved)", D};
  }

  /// `module->to(device)`, `.cuda()`, `.cpu()` on a module: a write of its static class's
  /// movedKey. `register_module(name, child)`: the child's class moves with this one.
  /// (A `to(dtype)` moves nothing.)
  void noteModuleMove(const CXXMemberCallExpr *MC, const CXXMethodDecl *MD) {
    if (!MD->getDeclName().isIdentifier() || MD->getParent()->getQualifiedNameAsString() != "torch::nn::Module")
      return;
    llvm::StringRef N = MD->getName();
    const CXXRecordDecl *X = objectClass(MC->getImplicitObjectArgument()); // not its Module base
    if (!X)
      return;
    if (N == "register_module") {
      if (MC->getNumArgs() < 2)
        return;
      const CXXRecordDecl *Child = moduleImplOf(MC->getArg(1)->IgnoreParenImpCasts()->getType());
      if (!Child)
        return;
      FieldFacts F = moved(Child, FieldDevice::Host);
      std::string Parent = movedKey(X);
      if (F.USR.empty() || Parent.empty())
        return;
      F.IfHost.push_back(Parent);
      Out.Fields.push_back(std::move(F));
      return;
    }
    FieldFacts F = moved(X, FieldDevice::Unknown);
    if (F.USR.empty())
      return;
    if (N == "cuda") {
      F.Device = FieldDevice::Device;
    } else if (N == "cpu") {
      F.Device = FieldDevice::Host;
    } else if (N == "to") {
      if (MC->getNumArgs() < 1 || MD->getNumParams() < 1 || !isDeviceValueType(MD->getParamDecl(0)->getType()))
        return; // to(dtype)
      WriteMerger(Ctx, F).add(MC->getArg(0)); // a write that holds no device leaves it unknown
    } else {
      return;
    }
    Out.Fields.push_back(std::move(F));
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  TUSummary &Out;
  std::vector<Frame> Frames;
};

llvm::json::Array strings(const std::vector<std::string> &V) { return llvm::json::Array(V); }

} // namespace

std::vector<TensorSource> tensorSources(const std::vector<TensorOrigin> &Origins, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<TensorSource> Out;
  for (const TensorOrigin &O : Origins) {
    TensorSource S;
    switch (O.K) {
    case TensorOrigin::Widened: {
      S.K = TensorSource::Kind::Widened;
      S.From = O.Chain.From;
      S.To = O.Chain.To;
      const Expr *At = O.Chain.Conversion ? O.Chain.Conversion : O.Chain.Root;
      Position P = positionOf(SM, At->getExprLoc());
      S.File = P.File;
      S.Line = P.Line;
      if (const FunctionDecl *FD = HotCodeAnalysis::get(Ctx).enclosingFunction(At))
        S.In = lambdaOperator(FD) ? "a lambda" : FD->getQualifiedNameAsString();
      break;
    }
    case TensorOrigin::UserCall:
      S.K = TensorSource::Kind::Call;
      S.USR = O.Element >= 0 ? exampleKey(O.Callee, static_cast<unsigned>(O.Element)) : usrOf(O.Callee);
      break;
    case TensorOrigin::FieldRead:
      S.K = TensorSource::Kind::Field;
      S.USR = usrOf(O.Field);
      break;
    case TensorOrigin::Unknown:
      break;
    }
    if ((S.K == TensorSource::Kind::Call || S.K == TensorSource::Kind::Field) && S.USR.empty())
      S = TensorSource{};
    if (std::find(Out.begin(), Out.end(), S) == Out.end())
      Out.push_back(std::move(S));
  }
  return Out;
}

namespace {

} // namespace

std::string paramKey(const FunctionDecl *FD, unsigned Index) {
  std::string U = usrOf(FD);
  return U.empty() ? U : U + "#param" + std::to_string(Index);
}

std::string returnKey(const FunctionDecl *FD) {
  std::string U = usrOf(FD);
  return U.empty() ? U : U + "#return";
}

std::string exampleKey(const FunctionDecl *FD, unsigned Element) {
  std::string U = usrOf(FD);
  return U.empty() ? U : U + "#example" + std::to_string(Element);
}

std::vector<std::string> hostKeys(const HostAssumptions &If) {
  // A key without a USR can never be confirmed: "?" is no key of the model.
  auto Key = [](std::string U) { return U.empty() ? std::string("?") : U; };
  std::vector<std::string> Out;
  for (const FieldDecl *FD : If.Fields)
    Out.push_back(Key(usrOf(FD)));
  for (const ParmVarDecl *PV : If.Params)
    Out.push_back(Key(paramKey(PV)));
  for (const FunctionDecl *FD : If.Returns)
    Out.push_back(Key(returnKey(FD)));
  for (const CXXRecordDecl *RD : If.Moved)
    Out.push_back(Key(movedKey(RD)));
  return Out;
}

std::string movedKey(const CXXRecordDecl *RD) {
  std::string U = usrOf(RD);
  return U.empty() ? "" : U + "#moved";
}

std::string paramKey(const ParmVarDecl *PV) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(PV ? PV->getDeclContext() : nullptr);
  return FD ? paramKey(FD, PV->getFunctionScopeIndex()) : "";
}

std::string usrOf(const Decl *D) {
  if (!D)
    return "";
  if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
    if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
      FD = P;
    if (const CXXMethodDecl *L = lambdaOperator(FD)) {
      Position P = positionOf(FD->getASTContext().getSourceManager(), L->getParent()->getLocation());
      return "lambda@" + P.File + ":" + std::to_string(P.Line) + ":" + std::to_string(P.Column);
    }
    D = FD->getCanonicalDecl();
  }
  llvm::SmallString<128> Buf;
  if (index::generateUSRForDecl(D, Buf))
    return "";
  return std::string(Buf);
}

TUSummary buildTUSummary(ASTContext &Ctx) {
  TUSummary S;
  const SourceManager &SM = Ctx.getSourceManager();
  if (const FileEntry *FE = SM.getFileEntryForID(SM.getMainFileID())) {
    llvm::SmallString<256> Abs(FE->tryGetRealPathName().empty() ? llvm::StringRef("") : FE->tryGetRealPathName());
    S.MainFile = std::string(Abs);
  }
  SummaryBuilder B(Ctx, S);
  B.TraverseDecl(Ctx.getTranslationUnitDecl());
  S.UsesCUDA = TUFacts::get(Ctx).usesCUDA().isValid();
  {
    const ProgramFacts &PF = ProgramFacts::get(Ctx);
    auto SiteAt = [&](SourceLocation L, std::string What = "") {
      Position P = positionOf(SM, L);
      return Site{P.File, P.Line, P.Column, std::move(What)};
    };
    if (PF.Main)
      S.Program.Main = SiteAt(PF.Main->getLocation());
    if (PF.BuildsConv)
      S.Program.Conv = SiteAt(PF.FirstConv, PF.ConvName);
    S.Program.CUDA = SiteAt(TUFacts::get(Ctx).usesCUDA());
    if (PF.Trains)
      S.Program.Trains = SiteAt(PF.FirstTraining);
    if (PF.ConfiguresCudnn)
      S.Program.Cudnn = SiteAt(PF.FirstCudnnConfig);
    S.Program.Opaque = SiteAt(TUFacts::get(Ctx).opaqueDevice());
  }
  for (const auto &[FD, V] : fieldWritesOf(Ctx)) {
    if (V.Known && V.Values.empty())
      continue; // only read here
    FieldFacts F{usrOf(FD), FD->getQualifiedNameAsString(), FieldDevice::Unknown};
    if (F.USR.empty())
      continue;
    if (V.Known) {
      WriteMerger W(Ctx, F, FD);
      for (const Expr *E : V.Values)
        W.add(E);
      if (!W.any())
        continue;
    }
    S.Fields.push_back(std::move(F));
  }
  // Where the tensors written into each field come from.
  for (const auto &[FD, V] : fieldWritesOf(Ctx)) {
    if ((V.Known && V.Values.empty()) || isDeviceValueType(FD->getType()))
      continue; // only read here; a device field holds no tensor
    TensorFlow Flow;
    Flow.USR = usrOf(FD);
    if (Flow.USR.empty())
      continue;
    Flow.Name = FD->getQualifiedNameAsString();
    Flow.IsField = true;
    Position P = positionOf(SM, FD->getLocation());
    Flow.File = P.File;
    Flow.Line = P.Line;
    if (V.Known) {
      std::vector<TensorOrigin> Origins;
      for (const Expr *E : V.Values)
        originsOf(E, Ctx, Origins);
      Flow.Sources = tensorSources(Origins, Ctx);
    } else {
      Flow.Sources.emplace_back(); // written in a way not followed
    }
    S.Flows.push_back(std::move(Flow));
  }
  // DenseMap order is not stable: the summary is.
  std::sort(S.Fields.begin(), S.Fields.end(), [](const FieldFacts &A, const FieldFacts &B) { return A.USR < B.USR; });
  std::stable_sort(S.Flows.begin(), S.Flows.end(), [](const TensorFlow &A, const TensorFlow &B) {
    return std::tie(A.IsField, A.USR) < std::tie(B.IsField, B.USR);
  });
  // Functions that an inline header defines appear in every TU that includes it: keep them
  // (the merge folds definitions at the same place), but drop empty duplicates of this TU.
  return S;
}

const char *tensorSourceKindName(TensorSource::Kind K) {
  switch (K) {
  case TensorSource::Kind::Widened:
    return "widened";
  case TensorSource::Kind::Call:
    return "call";
  case TensorSource::Kind::Field:
    return "field";
  case TensorSource::Kind::Unknown:
    break;
  }
  return "unknown";
}

const char *fieldDeviceName(FieldDevice D) {
  switch (D) {
  case FieldDevice::Host:
    return "host";
  case FieldDevice::Device:
    return "device";
  case FieldDevice::Unknown:
    break;
  }
  return "unknown";
}

llvm::json::Value toJson(const TUSummary &S) {
  using llvm::json::Array;
  using llvm::json::Object;
  Array Fns;
  for (const Function &F : S.Functions) {
    Array Loops, Calls, Steps;
    for (const Loop &L : F.Loops)
      Loops.push_back(
          Object{{"file", L.File}, {"line", L.Line}, {"col", L.Column}, {"parent", L.Parent}, {"bounded", L.Bounded},
                 {"conditional", L.Conditional}, {"rare", L.Rare}});
    for (const Call &C : F.Calls)
      Calls.push_back(Object{{"callee", C.Callee},
                             {"file", C.File},
                             {"line", C.Line},
                             {"col", C.Column},
                             {"loop", C.Loop},
                             {"virtual", C.Virtual},
                             {"conditional", C.Conditional},
                             {"rare", C.Rare},
                             {"rare_once", C.RareOnce},
                             {"const_args", C.ConstArgs}});
    for (const Step &St : F.Steps)
      Steps.push_back(Object{{"kind", stepKindName(St.Kind)}, {"loop", St.Loop}, {"line", St.Line}});
    Object FO{{"usr", F.USR},
              {"name", F.Name},
              {"file", F.File},
              {"line", F.Line},
              {"forward", F.Forward},
              {"test", F.TestBody},
              {"overrides", strings(F.Overrides)},
              {"loops", std::move(Loops)},
              {"calls", std::move(Calls)},
              {"steps", std::move(Steps)},
              {"grad", F.NeedsGradients}};
    if (!F.GradientsElsewhere.empty())
      FO["grad_elsewhere"] = strings(F.GradientsElsewhere);
    Fns.push_back(std::move(FO));
  }
  Array Mods;
  for (const ModuleFacts &M : S.Modules)
    Mods.push_back(
        Object{{"usr", M.USR}, {"name", M.Name}, {"file", M.File}, {"line", M.Line}, {"conv", M.HasConvolution}});
  Array Fields;
  for (const FieldFacts &F : S.Fields) {
    Object FO{{"usr", F.USR}, {"name", F.Name}, {"device", fieldDeviceName(F.Device)}};
    if (!F.IfHost.empty())
      FO["if_host"] = strings(F.IfHost);
    if (!F.In.empty())
      FO["in"] = F.In;
    Fields.push_back(std::move(FO));
  }
  Array Flows;
  for (const TensorFlow &F : S.Flows) {
    Array Sources;
    for (const TensorSource &Src : F.Sources) {
      Object O{{"kind", tensorSourceKindName(Src.K)}};
      if (Src.K == TensorSource::Kind::Widened) {
        O["from"] = Src.From;
        O["to"] = Src.To;
        O["in"] = Src.In;
        O["file"] = Src.File;
        O["line"] = Src.Line;
      } else if (Src.K != TensorSource::Kind::Unknown) {
        O["usr"] = Src.USR;
      }
      Sources.push_back(std::move(O));
    }
    Flows.push_back(Object{{"usr", F.USR},
                           {"name", F.Name},
                           {"field", F.IsField},
                           {"file", F.File},
                           {"line", F.Line},
                           {"sources", std::move(Sources)}});
  }
  Object Program;
  for (auto [Key, St] : {std::pair<const char *, const Site *>{"main", &S.Program.Main},
                         {"conv", &S.Program.Conv},
                         {"cuda", &S.Program.CUDA},
                         {"trains", &S.Program.Trains},
                         {"cudnn", &S.Program.Cudnn},
                         {"opaque_device", &S.Program.Opaque}})
    if (*St) {
      Object O{{"file", St->File}, {"line", St->Line}, {"col", St->Column}};
      if (!St->What.empty())
        O["what"] = St->What;
      Program[Key] = std::move(O);
    }
  return Object{{"format", SummaryFormat},
                {"torchlint", TORCHLINT_VERSION},
                {"main", S.MainFile},
                {"functions", std::move(Fns)},
                {"modules", std::move(Mods)},
                {"fields", std::move(Fields)},
                {"flows", std::move(Flows)},
                {"cuda", S.UsesCUDA},
                {"program", std::move(Program)}};
}

namespace {

struct Reader {
  std::string &Err;
  bool Ok = true;
  std::string str(const llvm::json::Object &O, llvm::StringRef K) {
    if (auto S = O.getString(K))
      return S->str();
    fail(K);
    return "";
  }
  int64_t num(const llvm::json::Object &O, llvm::StringRef K) {
    if (auto N = O.getInteger(K))
      return *N;
    fail(K);
    return 0;
  }
  bool flag(const llvm::json::Object &O, llvm::StringRef K) { return O.getBoolean(K).value_or(false); }
  const llvm::json::Array &arr(const llvm::json::Object &O, llvm::StringRef K) {
    static const llvm::json::Array Empty;
    if (const auto *A = O.getArray(K))
      return *A;
    fail(K);
    return Empty;
  }
  void fail(llvm::StringRef K) {
    if (Ok)
      Err = ("malformed summary: no '" + K + "'").str();
    Ok = false;
  }
};

} // namespace

std::optional<TUSummary> fromJson(const llvm::json::Value &V, std::string &Err) {
  const llvm::json::Object *O = V.getAsObject();
  if (!O) {
    Err = "malformed summary: not a JSON object";
    return std::nullopt;
  }
  std::optional<int64_t> Format = O->getInteger("format");
  if (!Format || *Format != SummaryFormat) {
    std::string By = O->getString("torchlint") ? O->getString("torchlint")->str() : "unknown";
    Err = "written by another torchlint version (" + By + ", summary format " +
          (Format ? std::to_string(*Format) : std::string("none")) + "; this one reads format " +
          std::to_string(SummaryFormat) + ")";
    return std::nullopt;
  }
  Reader R{Err};
  TUSummary S;
  S.MainFile = O->getString("main").value_or("").str();
  for (const llvm::json::Value &FV : R.arr(*O, "functions")) {
    const llvm::json::Object *FO = FV.getAsObject();
    if (!FO) {
      R.fail("functions[]");
      break;
    }
    Function F;
    F.USR = R.str(*FO, "usr");
    F.Name = R.str(*FO, "name");
    F.File = R.str(*FO, "file");
    F.Line = R.num(*FO, "line");
    F.Forward = R.flag(*FO, "forward");
    F.TestBody = R.flag(*FO, "test");
    F.NeedsGradients = R.flag(*FO, "grad");
    if (const auto *A = FO->getArray("grad_elsewhere"))
      for (const llvm::json::Value &U : *A)
        if (auto S2 = U.getAsString())
          F.GradientsElsewhere.push_back(S2->str());
    if (const auto *A = FO->getArray("overrides"))
      for (const llvm::json::Value &U : *A)
        if (auto S2 = U.getAsString())
          F.Overrides.push_back(S2->str());
    for (const llvm::json::Value &LV : R.arr(*FO, "loops"))
      if (const auto *LO = LV.getAsObject())
        F.Loops.push_back({R.str(*LO, "file"), (unsigned)R.num(*LO, "line"), (unsigned)R.num(*LO, "col"),
                           (int)R.num(*LO, "parent"), R.flag(*LO, "bounded"), R.flag(*LO, "conditional"),
                           R.str(*LO, "rare")});
    for (const llvm::json::Value &CV : R.arr(*FO, "calls"))
      if (const auto *CO = CV.getAsObject()) {
        Call C;
        C.Callee = R.str(*CO, "callee");
        C.File = R.str(*CO, "file");
        C.Line = R.num(*CO, "line");
        C.Column = R.num(*CO, "col");
        C.Loop = R.num(*CO, "loop");
        C.Virtual = R.flag(*CO, "virtual");
        C.Conditional = R.flag(*CO, "conditional");
        if (CO->get("rare")) // absent from summaries written before it was recorded
          C.Rare = R.str(*CO, "rare");
        if (CO->get("rare_once"))
          C.RareOnce = R.flag(*CO, "rare_once");
        if (CO->get("const_args"))
          C.ConstArgs = R.str(*CO, "const_args");
        F.Calls.push_back(std::move(C));
      }
    for (const llvm::json::Value &SV : R.arr(*FO, "steps"))
      if (const auto *SO = SV.getAsObject()) {
        Step St;
        std::string K = R.str(*SO, "kind");
        St.Kind = K == "backward"         ? StepKind::Backward
                  : K == "optimizer-step" ? StepKind::OptimizerStep
                  : K == "loss"           ? StepKind::Loss
                                          : StepKind::Forward;
        St.Loop = R.num(*SO, "loop");
        St.Line = R.num(*SO, "line");
        F.Steps.push_back(St);
      }
    // Loop indices must stay inside the function's loops.
    auto Bad = [&](int L) { return L < -1 || L >= static_cast<int>(F.Loops.size()); };
    for (const Loop &L : F.Loops)
      if (Bad(L.Parent))
        R.fail("loops[].parent");
    for (const Call &C : F.Calls)
      if (Bad(C.Loop))
        R.fail("calls[].loop");
    for (const Step &St : F.Steps)
      if (Bad(St.Loop))
        R.fail("steps[].loop");
    S.Functions.push_back(std::move(F));
  }
  if (const auto *A = O->getArray("modules"))
    for (const llvm::json::Value &MV : *A)
      if (const auto *MO = MV.getAsObject())
        S.Modules.push_back({MO->getString("usr").value_or("").str(), MO->getString("name").value_or("").str(),
                             MO->getString("file").value_or("").str(), (unsigned)MO->getInteger("line").value_or(0),
                             MO->getBoolean("conv").value_or(false)});
  S.UsesCUDA = O->getBoolean("cuda").value_or(false);
  if (const auto *P = O->getObject("program"))
    for (auto [Key, St] : {std::pair<const char *, Site *>{"main", &S.Program.Main},
                           {"conv", &S.Program.Conv},
                           {"cuda", &S.Program.CUDA},
                           {"trains", &S.Program.Trains},
                           {"cudnn", &S.Program.Cudnn},
                           {"opaque_device", &S.Program.Opaque}})
      if (const auto *SO = P->getObject(Key)) {
        St->File = R.str(*SO, "file");
        St->Line = R.num(*SO, "line");
        St->Column = SO->getInteger("col").value_or(0);
        St->What = SO->getString("what").value_or("").str();
      }
  if (const auto *A = O->getArray("fields"))
    for (const llvm::json::Value &FV : *A)
      if (const auto *FO = FV.getAsObject()) {
        llvm::StringRef D = FO->getString("device").value_or("");
        FieldFacts F{R.str(*FO, "usr"), FO->getString("name").value_or("").str(),
                     D == "host" ? FieldDevice::Host : D == "device" ? FieldDevice::Device : FieldDevice::Unknown};
        if (const auto *IA = FO->getArray("if_host"))
          for (const llvm::json::Value &U : *IA)
            if (auto S2 = U.getAsString())
              F.IfHost.push_back(S2->str());
        F.In = FO->getString("in").value_or("").str();
        S.Fields.push_back(std::move(F));
      }
  if (const auto *A = O->getArray("flows"))
    for (const llvm::json::Value &FV : *A) {
      const auto *FO = FV.getAsObject();
      if (!FO) {
        R.fail("flows[]");
        break;
      }
      TensorFlow F;
      F.USR = R.str(*FO, "usr");
      F.Name = FO->getString("name").value_or("").str();
      F.IsField = R.flag(*FO, "field");
      F.File = FO->getString("file").value_or("").str();
      F.Line = FO->getInteger("line").value_or(0);
      for (const llvm::json::Value &SV : R.arr(*FO, "sources")) {
        const auto *SO = SV.getAsObject();
        if (!SO) {
          R.fail("flows[].sources[]");
          break;
        }
        TensorSource Src;
        llvm::StringRef K = SO->getString("kind").value_or("");
        if (K == "widened") {
          Src.K = TensorSource::Kind::Widened;
          Src.From = R.str(*SO, "from");
          Src.To = R.str(*SO, "to");
          Src.In = SO->getString("in").value_or("").str();
          Src.File = SO->getString("file").value_or("").str();
          Src.Line = SO->getInteger("line").value_or(0);
        } else if (K == "call" || K == "field") {
          Src.K = K == "call" ? TensorSource::Kind::Call : TensorSource::Kind::Field;
          Src.USR = R.str(*SO, "usr");
        }
        F.Sources.push_back(std::move(Src));
      }
      S.Flows.push_back(std::move(F));
    }
  if (!R.Ok)
    return std::nullopt;
  return S;
}

} // namespace torchlint::model
