#include "analysis/DeviceProvenance.h"
// Beyond the header's list, also provably CPU: a tensor of a tuple that a libtorch call on provably
// CPU tensors returns (`std::get<1>(torch::max(t.cpu(), 1))`, `auto [v, i] = t.cpu().sort(1)`),
// and the result of a user function defined in the TU all of whose return statements return
// provably CPU tensors (`Tensor to_host(const Tensor &t) { return t.cpu(); }`); likewise for a
// device; and in a custom autograd Function, `ctx->saved_data["k"].toTensor()` when every tensor
// that the Function's methods store under "k" is (savedDataStores). (Documented here, not in the
// header, which every sync check includes.)
#include "analysis/HotCode.h"
#include "analysis/LocalDataflow.h"
#include "analysis/TorchTypes.h"
#include "core/AstWalk.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <map>

using namespace clang;

namespace torchlint {

namespace {

// Internal lattice: None (no value yet / no device given) is the identity of merge.
enum class D { None, CPU, Acc, Unknown };

D merge(D A, D B) {
  if (A == D::None)
    return B;
  if (B == D::None)
    return A;
  return A == B ? A : D::Unknown;
}

DeviceKind publicKind(D K) {
  switch (K) {
  case D::CPU:
    return DeviceKind::CPU;
  case D::Acc:
    return DeviceKind::Accelerator;
  default:
    return DeviceKind::Unknown;
  }
}

bool isFactoryName(llvm::StringRef N) { return tensorFactoryKind(N).any(); }

/// Strips implicit converting constructors as well (TensorOptions(kCUDA), Device(kCPU) made
/// implicitly): what the user wrote.
const Expr *written(const Expr *E) {
  while (E) {
    const Expr *Prev = E;
    E = stripCopies(E);
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
      if (!isa<CXXTemporaryObjectExpr>(CE) && CE->getParenOrBraceRange().isInvalid() && CE->getNumArgs() >= 1)
        E = CE->getArg(0);
    if (const auto *CE = dyn_cast<CXXMemberCallExpr>(E))
      if (isa_and_nonnull<CXXConversionDecl>(CE->getMethodDecl()))
        if (CE->getBeginLoc() == CE->getImplicitObjectArgument()->getBeginLoc() &&
            CE->getEndLoc() == CE->getImplicitObjectArgument()->getEndLoc())
          E = CE->getImplicitObjectArgument();
    if (E == Prev)
      return E;
  }
  return E;
}

bool isOptionalOf(QualType T, llvm::StringRef Inner) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD)
    return false;
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || Spec->getName() != "optional" || Spec->getTemplateArgs().size() < 1)
    return false;
  QualType A = Spec->getTemplateArgs()[0].getAsType();
  if (A.isNull())
    return false;
  if (const auto *IR = A->getAsCXXRecordDecl())
    return IR->getQualifiedNameAsString() == Inner;
  if (const auto *ET = A->getAs<EnumType>())
    return ET->getDecl()->getQualifiedNameAsString() == Inner;
  return false;
}

/// E names a member called saved_data (`ctx->saved_data`): that member, or null.
const ValueDecl *savedDataMember(const Expr *E) {
  const auto *ME = dyn_cast_or_null<MemberExpr>(E ? E->IgnoreImplicit() : nullptr);
  const ValueDecl *M = ME ? ME->getMemberDecl() : nullptr;
  return M && M->getDeclName().isIdentifier() && M->getName() == "saved_data" ? M : nullptr;
}

/// `ctx->saved_data["k"]` (AutogradContext's map of saved values): its key, or "".
llvm::StringRef savedDataKey(const Expr *E) {
  const auto *Sub = dyn_cast_or_null<CXXOperatorCallExpr>(E ? E->IgnoreImplicit() : nullptr);
  if (!Sub || Sub->getOperator() != OO_Subscript || Sub->getNumArgs() != 2)
    return "";
  const ValueDecl *M = savedDataMember(Sub->getArg(0));
  if (!M || !isTorchDecl(M))
    return "";
  if (const auto *SL = dyn_cast_or_null<StringLiteral>(written(Sub->getArg(1)))) // std::string("k")
    return SL->getString();
  return "";
}

/// The values stored under Key into saved_data by the methods of Class (a custom autograd
/// Function: forward() saves what backward() reads), or false when there is none or a method of
/// Class hands its context to another function (which may store under the same key).
bool savedDataStores(const CXXRecordDecl *Class, llvm::StringRef Key, llvm::SmallVectorImpl<const Expr *> &Out) {
  auto IsContext = [](const ValueDecl *VD) {
    const auto *PV = dyn_cast_or_null<ParmVarDecl>(VD);
    const CXXRecordDecl *R = PV ? PV->getType()->getPointeeCXXRecordDecl() : nullptr;
    return R && R->getDeclName().isIdentifier() && R->getName() == "AutogradContext";
  };
  bool Escapes = false;
  for (const CXXMethodDecl *M : Class->methods()) {
    forEachCall(M->getBody(), [&](const CallExpr *C) {
      for (const Expr *A : C->arguments())
        if (const auto *DRE = dyn_cast<DeclRefExpr>(A->IgnoreImplicit()); DRE && IsContext(DRE->getDecl()))
          Escapes = true;
      // saved_data.insert(...), emplace(...): stores this walk does not read.
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C); MC && savedDataMember(MC->getImplicitObjectArgument()))
        Escapes = true;
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(C);
          Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 && savedDataKey(Op->getArg(0)) == Key &&
          !llvm::is_contained(Out, Op->getArg(1)))
        Out.push_back(Op->getArg(1));
    });
  }
  return !Escapes && !Out.empty();
}

class Prover {
public:
  explicit Prover(ASTContext &Ctx) : Ctx(Ctx) {}

  D tensor(const Expr *E, unsigned Depth = 0) {
    if (!E || Depth > 64)
      return cutOff(E);
    E = stripMoves(E);
    if (!isTensorType(E->getType()) && isTensorContainerType(E->getType()))
      return container(E, Depth + 1);
    if (const auto *C = dyn_cast<ConditionalOperator>(E))
      return merge(tensor(C->getTrueExpr(), Depth + 1), tensor(C->getFalseExpr(), Depth + 1));
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      // `auto [values, indices] = torch::max(t.cpu(), 1);`: where the tuple's tensors live.
      if (const auto *BD = dyn_cast<BindingDecl>(DRE->getDecl())) {
        const auto *DD = dyn_cast_or_null<DecompositionDecl>(BD->getDecomposedDecl());
        if (!DD || !DD->isLocalVarDecl() || DD->getType()->isReferenceType() || !DD->getInit())
          return D::Unknown;
        return tuple(DD->getInit(), Depth + 1);
      }
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD)
        return D::Unknown;
      if (const Expr *Last = onlyReachingAssignment(DRE, VD, Ctx))
        return tensor(Last, Depth + 1);
      return variable(VD, Depth, /*Tensor=*/true);
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return field(ME->getMemberDecl());
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      const Expr *Obj = MC->getImplicitObjectArgument();
      if (MD && Obj && isTensorContainerType(Obj->getType()) && MD->getDeclName().isIdentifier() &&
          llvm::is_contained({"at", "back", "front"}, MD->getName()))
        return container(Obj, Depth + 1); // v.back(): an element
      // cache.grid(): a user method returns what its return statements return.
      // A virtual call on an object whose class is known (a local object, not a reference or a
      // pointer: `dist.sample()`) runs that class's method; any other virtual call runs one of
      // the overrides, which only the project model sees (a return value of each).
      if (MD && Obj && !isTorchDecl(MD) && !isTensorType(Obj->getType()) && !isTensorContainerType(Obj->getType())) {
        if (MD->isVirtual())
          if (const CXXMethodDecl *Exact = MD->getDevirtualizedMethod(Obj, /*IsAppleKext=*/false))
            return returned(Exact, Depth, /*Exact=*/true);
        return returned(MD, Depth, /*Exact=*/!MD->isVirtual());
      }
      // `upper{register_buffer("upper", bound)}`: the tensor registered, as long as no module
      // holding it is moved (the project model decides the moves).
      if (MD && Obj && isTorchDecl(MD) && MD->getDeclName().isIdentifier() &&
          (MD->getName() == "register_buffer" || MD->getName() == "register_parameter") && MC->getNumArgs() >= 2 &&
          Assume && Assume->AcrossFiles) {
        const CXXRecordDecl *Holder = objectClass(Obj); // `this`, not its Module base
        if (!Holder)
          return D::Unknown;
        if (!llvm::is_contained(Assume->Moved, Holder->getCanonicalDecl()))
          Assume->Moved.push_back(Holder->getCanonicalDecl());
        return tensor(MC->getArg(1), Depth + 1);
      }
      // linear->forward(x): a libtorch layer's output lives with its input (its parameters must be
      // on the same device, or the call throws), as `linear(x)` does through its operator().
      // Not containers (a Sequential's or AnyModule's modules may be the user's, which may move
      // tensors) nor TorchScript modules (their code is not seen).
      if (MD && Obj && isTorchDecl(MD) && MD->getDeclName().isIdentifier() && MD->getName() == "forward" &&
          !isTensorType(Obj->getType())) {
        std::string Owner = MD->getParent()->getQualifiedNameAsString();
        if (Owner != "torch::nn::SequentialImpl" && Owner != "torch::nn::AnyModule" &&
            Owner != "torch::nn::ModuleListImpl" && Owner != "torch::nn::ModuleDictImpl" &&
            !llvm::StringRef(Owner).starts_with("torch::jit::"))
          return operands(MC, Depth);
        return D::Unknown;
      }
      // `ctx->saved_data["k"].toTensor()` in a custom autograd Function's backward(): where the
      // tensors that its methods store under "k" live (forward()'s `ctx->saved_data["k"] = t`).
      if (MD && Obj && isTorchDecl(MD) && MD->getDeclName().isIdentifier() && MD->getName() == "toTensor") {
        llvm::StringRef Key = savedDataKey(Obj);
        const auto *In =
            dyn_cast_or_null<CXXMethodDecl>(Key.empty() ? nullptr : HotCodeAnalysis::get(Ctx).enclosingFunction(MC));
        llvm::SmallVector<const Expr *, 2> Stored;
        if (!In || !savedDataStores(In->getParent(), Key, Stored))
          return D::Unknown;
        D K = D::None;
        for (const Expr *S : Stored)
          K = merge(K, tensor(written(S), Depth + 1)); // IValue(t): t
        return K == D::None ? D::Unknown : K;
      }
      if (!MD || !Obj || !isTensorType(Obj->getType()))
        return D::Unknown;
      llvm::StringRef N = MD->getDeclName().isIdentifier() ? MD->getName() : "";
      if (N == "cpu" || N == "pin_memory")
        return D::CPU;
      if (N == "cuda" || N == "mps" || N == "xpu" || N == "hip")
        return D::Acc;
      if (N == "to") {
        if (MC->getNumArgs() == 0)
          return D::Unknown;
        const Expr *A = written(MC->getArg(0));
        if (isTensorType(A->getType()))
          return tensor(A, Depth + 1); // t.to(other)
        if (isDeviceLikeType(A->getType()) || isTensorOptionsType(A->getType())) {
          bool NoDevice = false;
          D K = denoted(A, Depth + 1, &NoDevice);
          if (NoDevice)
            return tensor(Obj, Depth + 1);
          return K;
        }
        return tensor(Obj, Depth + 1); // t.to(kFloat)
      }
      // Every other tensor method returns a tensor on its object's device.
      return tensor(Obj, Depth + 1);
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
      return operands(Op, Depth);
    if (const auto *C = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *FD = C->getDirectCallee();
      if (!FD)
        return D::Unknown;
      // std::get<N>(torch::max(t.cpu(), 1)), std::get<0>(t.sort(1)).
      if (FD->isInStdNamespace() && FD->getDeclName().isIdentifier() && FD->getName() == "get" &&
          C->getNumArgs() == 1)
        return tuple(C->getArg(0), Depth + 1);
      if (!isTorchDecl(FD))
        return returned(FD, Depth); // user functions: what every return statement returns
      llvm::StringRef N = FD->getDeclName().isIdentifier() ? FD->getName() : "";
      if (isFactoryName(N))
        return factory(C, N, Depth);
      return operands(C, Depth);
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
      if (CE->getNumArgs() == 0)
        return D::None;
    return D::Unknown;
  }

  D denoted(const Expr *E, unsigned Depth, bool *NoDevice) {
    if (!E || Depth > 64)
      return cutOff(E);
    E = written(E);
    if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
      bool N1 = false, N2 = false;
      D K = merge(denoted(C->getTrueExpr(), Depth + 1, &N1), denoted(C->getFalseExpr(), Depth + 1, &N2));
      if (N1 && N2 && NoDevice)
        *NoDevice = true;
      return N1 != N2 ? D::Unknown : K;
    }
    if (const auto *SL = dyn_cast<StringLiteral>(E)) {
      // "CPU" is not a device string libtorch accepts (it throws): what runs after it is the
      // program's intent, the CPU, or nothing at all; neither waits for a GPU.
      llvm::StringRef S = SL->getString();
      return S.equals_insensitive("cpu") || S.starts_with_insensitive("cpu:") ? D::CPU : D::Acc;
    }
    if (isTensorType(E->getType()))
      return tensor(E, Depth + 1);
    // `options.environment_device`: a device field, where every write of the project puts it.
    if (const auto *ME = dyn_cast<MemberExpr>(E); ME && isDeviceValueType(ME->getType()))
      return field(ME->getMemberDecl());
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *EC = dyn_cast<EnumConstantDecl>(DRE->getDecl())) {
        const auto *ED = dyn_cast<EnumDecl>(EC->getDeclContext());
        if (ED && ED->getQualifiedNameAsString() == "c10::DeviceType")
          return EC->getName() == "CPU" ? D::CPU : D::Acc;
        if (ED && ED->getQualifiedNameAsString() == "c10::ScalarType") {
          if (NoDevice)
            *NoDevice = true;
          return D::None;
        }
        return D::Unknown;
      }
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
        // kCPU, kCUDA: constexpr constants in libtorch's headers.
        if (isTorchDecl(VD) && VD->getInit() && VD->getType().isConstQualified())
          return denoted(VD->getInit(), Depth + 1, NoDevice);
        // `device = torch::kCPU;` after a branch that picked CUDA: only that write reaches here.
        if (const Expr *Last = onlyReachingAssignment(DRE, VD, Ctx))
          return denoted(Last, Depth + 1, NoDevice);
        return variable(VD, Depth, /*Tensor=*/false, NoDevice);
      }
      return D::Unknown;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      const CXXRecordDecl *RD = CE->getConstructor() ? CE->getConstructor()->getParent() : nullptr;
      std::string Name = RD ? RD->getQualifiedNameAsString() : "";
      if (Name == "c10::TensorOptions") {
        if (CE->getNumArgs() == 0 || isa<CXXDefaultArgExpr>(CE->getArg(0))) {
          if (NoDevice)
            *NoDevice = true;
          return D::None;
        }
        return denoted(CE->getArg(0), Depth + 1, NoDevice);
      }
      if (Name == "c10::Device" && CE->getNumArgs() >= 1)
        return denoted(CE->getArg(0), Depth + 1, NoDevice);
      if (Name == "std::basic_string" && CE->getNumArgs() >= 1)
        return denoted(CE->getArg(0), Depth + 1, NoDevice);
      return D::Unknown;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      const Expr *Obj = MC->getImplicitObjectArgument();
      if (!MD || !Obj || !MD->getDeclName().isIdentifier())
        return D::Unknown;
      llvm::StringRef N = MD->getName();
      if (isTensorType(Obj->getType()) && (N == "device" || N == "options"))
        return tensor(Obj, Depth + 1);
      if (isTensorOptionsType(Obj->getType())) {
        if (N == "device" && MC->getNumArgs() >= 1)
          return denoted(MC->getArg(0), Depth + 1, NoDevice);
        // .dtype(), .layout(), .requires_grad(), .pinned_memory(), .memory_format()
        return denoted(Obj, Depth + 1, NoDevice);
      }
      return D::Unknown;
    }
    if (const auto *C = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *FD = C->getDirectCallee();
      if (FD && isTorchDecl(FD) && FD->getDeclName().isIdentifier()) {
        llvm::StringRef N = FD->getName();
        if (N == "device" && C->getNumArgs() >= 1)
          return denoted(C->getArg(0), Depth + 1, NoDevice); // torch::device(kCUDA)
        if (N == "dtype" || N == "layout" || N == "requires_grad" || N == "memory_format") {
          if (NoDevice)
            *NoDevice = true;
          return D::None;
        }
      }
      return D::Unknown;
    }
    return D::Unknown;
  }

  /// Set for deviceIfHost(): a tensor field read is taken as host memory and recorded; with
  /// AcrossFiles, so are parameters of unknown device and functions defined in other files.
  HostAssumptions *Assume = nullptr;
  /// The field whose stored values are asked about (deviceOfStored()): its old value adds nothing.
  const FieldDecl *Self = nullptr;

private:
  /// A parameter whose device only the project's calls tell, taken as host memory and recorded.
  bool assumedParam(const ParmVarDecl *PV) {
    if (!Assume || !Assume->AcrossFiles || !deviceFollowsCallSites(PV, Ctx))
      return false;
    if (!llvm::is_contained(Assume->Params, PV))
      Assume->Params.push_back(PV);
    return true;
  }

  D field(const ValueDecl *VD) {
    const auto *FD = dyn_cast_or_null<FieldDecl>(VD);
    if (!FD)
      return D::Unknown;
    if (FD == Self)
      return D::None;
    if (Assume && !isTorchDecl(FD)) {
      if (!llvm::is_contained(Assume->Fields, FD))
        Assume->Fields.push_back(FD);
      return D::CPU;
    }
    return D::Unknown;
  }

  /// Where the tensors of a container of tensors live: a local's elements (elementsOf), a field's
  /// (as field()), a braced list's.
  D container(const Expr *E, unsigned Depth) {
    if (!E || Depth > 64)
      return cutOff(E);
    E = stripMoves(E);
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return field(ME->getMemberDecl());
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (const auto *PV = dyn_cast_or_null<ParmVarDecl>(VD))
        return assumedParam(PV) ? D::CPU : D::Unknown; // std::vector<Tensor> boxes, taken by value
      if (!VD || !InProgress.insert(VD).second) {
        ++Cycles;
        return VD ? D::None : D::Unknown;
      }
      const VarValues &V = elementsOf(VD, Ctx);
      D K = V.Known ? D::None : D::Unknown;
      if (V.Known)
        for (const Expr *Val : V.Values)
          K = merge(K, tensor(Val, Depth + 1));
      InProgress.erase(VD);
      return K;
    }
    D K = D::None;
    bool Any = false;
    collectTensors(E, [&](const Expr *T) {
      Any = true;
      K = merge(K, tensor(T, Depth + 1));
    });
    return Any ? K : D::Unknown;
  }

  /// Where the tensors of a std::tuple of tensors live: the result of a libtorch function or
  /// tensor method (torch::max(t, 1), t.sort(1)) lives with its tensor operands; a local tuple
  /// variable with all its values.
  D tuple(const Expr *E, unsigned Depth) {
    if (!E || Depth > 64)
      return cutOff(E);
    E = stripCopies(E);
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      const Expr *Obj = MC->getImplicitObjectArgument();
      return Obj && isTensorType(Obj->getType()) ? tensor(Obj, Depth + 1) : D::Unknown;
    }
    if (const auto *C = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *FD = C->getDirectCallee();
      return FD && isTorchDecl(FD) && !isa<CXXOperatorCallExpr>(C) ? operands(C, Depth) : D::Unknown;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD || isa<ParmVarDecl>(VD) || !VD->isLocalVarDecl() || !InProgress.insert(VD).second) {
        ++Cycles;
        return D::Unknown;
      }
      const VarValues &V = valuesOf(VD, Ctx);
      D K = V.Known && !V.Values.empty() ? D::None : D::Unknown;
      if (V.Known)
        for (const Expr *Val : V.Values)
          K = merge(K, tuple(Val, Depth + 1));
      InProgress.erase(VD);
      return K == D::None ? D::Unknown : K;
    }
    return D::Unknown;
  }

  /// A user function defined in the TU that returns a tensor: the device of every value its return
  /// statements return (`Tensor to_host(const Tensor &t) { return t.cpu(); }` is CPU). Unknown when
  /// it has no body here, is called virtually (not Exact), or returns a reference (with the project
  /// model, the first two rest on its return values in the project).
  D returned(const FunctionDecl *FD, unsigned Depth, bool Exact = true) {
    const FunctionDecl *Def = nullptr;
    const auto *MD = dyn_cast<CXXMethodDecl>(FD);
    bool Dispatched = MD && MD->isVirtual() && !Exact;
    if (!FD->hasBody(Def) || !Def || Dispatched) {
      // Defined in another file, or a virtual call: what the return statements of it (and of
      // every override) return there (project model).
      if (returnFollowsDefinition(FD) && Assume && Assume->AcrossFiles) {
        if (!llvm::is_contained(Assume->Returns, FD->getCanonicalDecl()))
          Assume->Returns.push_back(FD->getCanonicalDecl());
        return D::CPU;
      }
      return D::Unknown;
    }
    if (Depth > 40) {
      ++Cutoffs;
      return D::Unknown;
    }
    if (!isTensorType(Def->getReturnType()) || Def->getReturnType()->isReferenceType())
      return D::Unknown;
    if (!InProgressFns.insert(Def).second) {
      ++Cycles;
      return D::None; // recursion adds nothing
    }
    D K = D::None;
    bool Any = false;
    unsigned Before = Cycles;
    for (const ReturnStmt *R : returnsOf(Def->getBody())) {
      Any = true;
      K = merge(K, R->getRetValue() ? tensor(R->getRetValue(), Depth + 1) : D::Unknown);
    }
    InProgressFns.erase(Def);
    // Every return adds nothing through a cycle (the caller's variable the call is assigned to):
    // neither does the call.
    if (Any && K == D::None && Cycles != Before)
      return D::None;
    return !Any || K == D::None ? D::Unknown : K;
  }

  D variable(const VarDecl *VD, unsigned Depth, bool Tensor, bool *NoDevice = nullptr) {
    // A variable asked again within one question (the locals of a physics step refer to each
    // other many times over): its answer, when nothing partial went into it.
    std::tuple<const VarDecl *, bool, bool> Key{VD, Tensor, NoDevice != nullptr};
    if (auto Memo = Known.find(Key); Memo != Known.end()) {
      if (NoDevice && Memo->second.NoDevice)
        *NoDevice = true;
      return Memo->second.K;
    }
    unsigned Partial = Cycles + Cutoffs;
    bool ND = false;
    D K = variableUncached(VD, Depth, Tensor, NoDevice ? &ND : nullptr);
    if (ND && NoDevice)
      *NoDevice = true;
    if (Cycles + Cutoffs == Partial)
      Known[Key] = {K, ND};
    return K;
  }

  D variableUncached(const VarDecl *VD, unsigned Depth, bool Tensor, bool *NoDevice) {
    if (!InProgress.insert(VD).second) {
      ++Cycles;
      return D::None; // a cycle (t = t.add(1)): adds nothing
    }
    if (const auto *PV = dyn_cast<ParmVarDecl>(VD)) {
      // A parameter lives where every call in the TU puts it (`to_text(ids.to(torch::kCPU))`).
      D K = D::Unknown;
      if (auto Args = HotCodeAnalysis::get(Ctx).argumentsAtEveryCall(PV)) {
        K = D::None;
        unsigned Before = Cycles;
        for (const Expr *Arg : *Args)
          K = merge(K, Tensor ? tensor(Arg, Depth + 1) : denoted(Arg, Depth + 1, nullptr));
        // Every argument adds nothing through a cycle (`state = sim.step(state, a)`, asked
        // inside step()): neither does the parameter; else nothing is known.
        if (K == D::None && Cycles == Before)
          K = D::Unknown;
      }
      if (K == D::Unknown && (Tensor || isDeviceValueType(PV->getType())) && assumedParam(PV))
        K = D::CPU;
      InProgress.erase(VD);
      return K;
    }
    // `for (const auto &box : boxes_)`: one element of the range per iteration.
    if (Tensor && isTensorType(VD->getType().getNonReferenceType()))
      if (const Expr *Range = rangeOfLoopVariable(VD, Ctx)) {
        D K = container(Range, Depth + 1);
        InProgress.erase(VD);
        return K;
      }
    const VarValues &V = valuesOf(VD, Ctx);
    D K = D::Unknown;
    if (V.Known) {
      K = D::None;
      bool AllNoDevice = !V.Values.empty();
      for (const Expr *Val : V.Values) {
        bool ND = false;
        K = merge(K, Tensor ? tensor(Val, Depth + 1) : denoted(Val, Depth + 1, &ND));
        AllNoDevice &= ND;
      }
      if (!Tensor && AllNoDevice && NoDevice)
        *NoDevice = true;
      else if (!Tensor && V.DefaultInit)
        K = merge(K, D::CPU); // a default-constructed Device/TensorOptions is the CPU
    }
    InProgress.erase(VD);
    return K;
  }

  D factory(const CallExpr *C, llvm::StringRef Name, unsigned Depth) {
    const FunctionDecl *FD = C->getDirectCallee();
    bool Like = Name.ends_with("_like");
    D K = D::None;
    bool SawDevice = false;
    for (unsigned I = 0; I < C->getNumArgs() && I < FD->getNumParams(); ++I) {
      const Expr *A = C->getArg(I);
      if (isa<CXXDefaultArgExpr>(A))
        continue;
      QualType PT = FD->getParamDecl(I)->getType();
      if (isTensorOptionsType(PT) || isDeviceLikeType(PT) || isOptionalOf(PT, "c10::Device")) {
        bool ND = false;
        D Dev = denoted(A, Depth + 1, &ND);
        if (!ND) {
          SawDevice = true;
          K = merge(K, Dev);
        }
      }
    }
    if (SawDevice)
      return K == D::None ? D::Unknown : K;
    if (Like && C->getNumArgs() >= 1)
      return tensor(C->getArg(0), Depth + 1);
    return D::CPU;
  }

  /// An op's result lives where its tensor operands live. Operands that add nothing (the variable
  /// being followed, in `x = x * 2`; the field being stored, in `f = f + g`) leave None: the op
  /// adds nothing either, and the other values decide.
  D operands(const CallExpr *C, unsigned Depth) {
    D K = D::None;
    bool Any = false;
    for (const Expr *A : C->arguments()) {
      if (isa<CXXDefaultArgExpr>(A))
        continue;
      collectTensors(A, [&](const Expr *T) {
        Any = true;
        K = merge(K, tensor(T, Depth + 1));
      });
    }
    return Any ? K : D::Unknown;
  }

  template <typename F> void collectTensors(const Expr *A, F &&Fn) {
    A = stripCopies(A);
    if (isTensorType(A->getType())) {
      Fn(A);
      return;
    }
    // A named container (torch::stack(images), a std::vector<Tensor> field): its elements, as
    // one tensor standing for all of them.
    if (isTensorContainerType(A->getType()) && isa<DeclRefExpr, MemberExpr>(A)) {
      Fn(A);
      return;
    }
    // TensorList / ArrayRef<Tensor> built from a braced list: {a, b}.
    if (const auto *CE = dyn_cast<CXXConstructExpr>(A)) {
      for (const Expr *Sub : CE->arguments())
        collectTensors(Sub, Fn);
      return;
    }
    if (const auto *IL = dyn_cast<CXXStdInitializerListExpr>(A)) {
      collectTensors(IL->getSubExpr(), Fn);
      return;
    }
    if (const auto *IL = dyn_cast<InitListExpr>(A)) {
      for (const Expr *Sub : IL->inits())
        collectTensors(Sub, Fn);
      return;
    }
  }

  D cutOff(const Expr *E) {
    if (E)
      ++Cutoffs;
    return D::Unknown;
  }

  ASTContext &Ctx;
  llvm::SmallPtrSet<const VarDecl *, 8> InProgress;
  /// Answers that rest on no cycle cut and no depth cut-off (variable()).
  struct Answer {
    D K;
    bool NoDevice;
  };
  std::map<std::tuple<const VarDecl *, bool, bool>, Answer> Known; // variable, tensor, NoDevice asked
  unsigned Cycles = 0, Cutoffs = 0;
  llvm::SmallPtrSet<const FunctionDecl *, 4> InProgressFns;
};

} // namespace

DeviceKind deviceOf(const Expr *E, ASTContext &Ctx) {
  Prover P(Ctx);
  return publicKind(P.tensor(E));
}

DeviceKind deviceIfHost(const Expr *E, ASTContext &Ctx, HostAssumptions &If) {
  Prover P(Ctx);
  P.Assume = &If;
  return publicKind(P.tensor(E));
}

bool returnFollowsDefinition(const FunctionDecl *FD) {
  if (!FD || !FD->getDeclName().isIdentifier() || FD->getName().empty() || isTorchDecl(FD) ||
      !isTensorType(FD->getReturnType()) || FD->getReturnType()->isReferenceType() || FD->isInStdNamespace())
    return false;
  // A virtual method too: the model joins the return values of every override.
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  return !MD || !MD->getParent()->isLambda();
}

bool deviceFollowsCallSites(const ParmVarDecl *PV, ASTContext &Ctx, bool Body) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(PV->getDeclContext());
  if (!FD || !(isa<CXXConstructorDecl>(FD) || (FD->getDeclName().isIdentifier() && !FD->getName().empty())))
    return false;
  // A virtual method's parameter: the calls of it and of every method it overrides (the model
  // joins them: a call through the base reaches every override).
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->getParent()->isLambda())
    return false;
  QualType T = PV->getType();
  if (!isTensorType(T.getNonReferenceType()) && !isTensorContainerType(T.getNonReferenceType()) &&
      !isDeviceValueType(T))
    return false;
  // A non-const reference or a reassigned copy may hold anything.
  if (T->isReferenceType())
    return T->getPointeeType().isConstQualified();
  return !Body || !valuesOf(PV, Ctx).Written;
}

std::optional<DeviceKind> deviceOfStored(const Expr *E, const FieldDecl *Field, ASTContext &Ctx,
                                         HostAssumptions *If) {
  Prover P(Ctx);
  P.Self = Field;
  P.Assume = If;
  // A device field's or parameter's value (`environment_device = value`): the device it names.
  D K = isDeviceValueType(E->getType()) || (Field && isDeviceValueType(Field->getType())) ? P.denoted(E, 0, nullptr)
                                                                                          : P.tensor(E);
  if (K == D::None)
    return std::nullopt;
  return publicKind(K);
}

DeviceKind deviceDenotedBy(const Expr *E, ASTContext &Ctx, bool *NoDevice) {
  Prover P(Ctx);
  bool ND = false;
  D K = P.denoted(E, 0, &ND);
  if (NoDevice)
    *NoDevice = ND;
  return publicKind(K);
}

} // namespace torchlint
