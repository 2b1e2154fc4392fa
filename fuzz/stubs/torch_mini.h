// A few hundred lines that look like libtorch to torchlint's analyses (at::Tensor, c10::Device,
// c10::TensorOptions, torch::nn::Module, the tensor factories, TORCH_VERSION_*), so the fuzzer can
// exercise every check without parsing the real torch/torch.h (~10 s per TU). Served in memory as
// <torch/torch.h> (and a few other torch/ headers) by torchlint_fuzz; also used by the reliability
// tests. It is not libtorch: only declarations, nothing here has to link.
#pragma once
#define TORCH_VERSION_MAJOR 2
#define TORCH_VERSION_MINOR 15
#define TORCH_VERSION_PATCH 0
typedef decltype(sizeof(0)) size_t;
namespace std {
template <class T> struct initializer_list {
  const T *b; size_t n;
  const T *begin() const { return b; }
  const T *end() const { return b + n; }
  size_t size() const { return n; }
};
template <class T> struct vector {
  T *b, *e;
  vector() {}
  vector(initializer_list<T>) {}
  T *begin() { return b; }
  T *end() { return e; }
  const T *begin() const { return b; }
  const T *end() const { return e; }
  size_t size() const { return e - b; }
  T &operator[](size_t i) { return b[i]; }
  void push_back(const T &) {}
};
struct string {
  string() {}
  string(const char *) {}
  const char *c_str() const { return ""; }
};
template <class T> using basic_string = string;
template <class T> struct shared_ptr {
  T *p;
  T *operator->() const { return p; }
  T &operator*() const { return *p; }
};
template <class T, class... A> shared_ptr<T> make_shared(A &&...);
template <class T> struct unique_ptr {
  T *p;
  T *operator->() const { return p; }
  T &operator*() const { return *p; }
};
template <class It> struct back_insert_iterator {
  It *c;
};
template <class C> back_insert_iterator<C> back_inserter(C &);
template <class In, class Out, class F> Out transform(In first, In last, Out out, F f) { return out; }
template <class T> T &&move(T &t) { return static_cast<T &&>(t); }
template <class K, class V> struct unordered_map {
  struct iterator {
    bool operator!=(const iterator &) const;
    bool operator==(const iterator &) const;
  };
  V &operator[](const K &);
  iterator find(const K &);
  iterator end();
};
struct nullopt_t {
  explicit constexpr nullopt_t(int) {}
};
inline constexpr nullopt_t nullopt{0};
template <class T> struct optional {
  optional() {}
  optional(nullopt_t) {}
  optional(const T &) {}
  bool has_value() const;
  explicit operator bool() const;
  const T &value() const;
  const T *operator->() const;
  const T &operator*() const;
};
struct ostream {};
extern ostream cout;
ostream &operator<<(ostream &, const char *);
ostream &operator<<(ostream &, double);
ostream &operator<<(ostream &, int);
} // namespace std
namespace c10 {
using std::nullopt;
using std::optional;
enum class DeviceType : signed char { CPU = 0, CUDA = 1, MPS = 13 };
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
enum class ScalarType : signed char { Float, Double, Half, BFloat16, Long, Int, Bool, Byte };
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kFloat32 = ScalarType::Float;
constexpr ScalarType kByte = ScalarType::Byte;
constexpr ScalarType kU8 = ScalarType::Byte;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kHalf = ScalarType::Half;
constexpr ScalarType kDouble = ScalarType::Double;
struct Device {
  Device(DeviceType t, int index = -1);
  Device(const std::string &s);
  Device(const char *s);
  bool is_cuda() const;
  bool is_cpu() const;
};
struct TensorOptions {
  TensorOptions();
  TensorOptions(ScalarType);
  TensorOptions(Device);
  TensorOptions(DeviceType);
  TensorOptions device(Device) const;
  TensorOptions dtype(ScalarType) const;
  TensorOptions requires_grad(bool = true) const;
  TensorOptions pinned_memory(bool = true) const;
};
struct Scalar {
  Scalar(double);
  Scalar(int);
  double toDouble() const;
  float toFloat() const;
  long toLong() const;
};
using IntArrayRef = std::initializer_list<long>;
} // namespace c10
namespace at {
using c10::Device;
using c10::DeviceType;
using c10::IntArrayRef;
using c10::Scalar;
using c10::ScalarType;
using c10::TensorOptions;
using c10::kCPU;
using c10::kCUDA;
using c10::kFloat;
using c10::kFloat32;
using c10::kByte;
using c10::kU8;
using c10::kLong;
class TensorBase {
public:
  long numel() const;
  long dim() const;
  Device device() const;
  bool is_cuda() const;
  bool defined() const;
};
class Tensor : public TensorBase {
public:
  Tensor();
  Scalar item() const;
  template <class T> T item() const;
  Tensor cuda(bool non_blocking = false) const;
  Tensor cpu() const;
  Tensor to(TensorOptions options, bool non_blocking = false, bool copy = false) const;
  Tensor to(Device device, ScalarType dtype, bool non_blocking = false, bool copy = false) const;
  Tensor to(ScalarType dtype, bool non_blocking = false, bool copy = false) const;
  Tensor toType(ScalarType dtype) const;
  Tensor detach() const;
  Tensor clone() const;
  Tensor sum() const;
  Tensor mean() const;
  Tensor std() const;
  Tensor permute(IntArrayRef) const;
  Tensor div(double) const;
  Tensor backward() const;
  Tensor view(IntArrayRef) const;
  Tensor reshape(IntArrayRef) const;
  Tensor contiguous() const;
  Tensor index(std::initializer_list<long>) const;
  Tensor &zero_();
  Tensor &squeeze_(long dim);
  Tensor &add_(const Tensor &);
  template <class T> T *data_ptr() const;
  template <class T> T *accessor() const;
  Tensor operator[](long) const;
  Tensor &operator+=(const Tensor &);
  Tensor &operator+=(double);
  bool equal(const Tensor &) const;
  long size(long dim) const;
  std::vector<long> sizes() const;
  Tensor &requires_grad_(bool on = true);
};
Tensor operator+(const Tensor &, const Tensor &);
Tensor operator*(const Tensor &, const Tensor &);
Tensor operator*(const Tensor &, double);
Tensor operator-(const Tensor &, const Tensor &);
Tensor operator>(const Tensor &, double);
Tensor operator/(const Tensor &, double);
Tensor operator/(const Tensor &, const Tensor &);
Tensor from_blob(void *data, IntArrayRef sizes, TensorOptions options = {});
#define TORCHLINT_MINI_FACTORY(name)                                                              \
  Tensor name(IntArrayRef size, TensorOptions options = {});
TORCHLINT_MINI_FACTORY(rand)
TORCHLINT_MINI_FACTORY(randn)
TORCHLINT_MINI_FACTORY(zeros)
TORCHLINT_MINI_FACTORY(ones)
TORCHLINT_MINI_FACTORY(empty)
#undef TORCHLINT_MINI_FACTORY
Tensor full(IntArrayRef size, Scalar fill, TensorOptions options = {});
Tensor arange(Scalar end, TensorOptions options = {});
Tensor eye(long n, TensorOptions options = {});
Tensor randint(long high, IntArrayRef size, TensorOptions options = {});
Tensor tensor(std::initializer_list<double> values, TensorOptions options = {});
Tensor cat(std::initializer_list<Tensor>, long dim = 0);
Tensor stack(std::initializer_list<Tensor>, long dim = 0);
Tensor stack(const std::vector<Tensor> &, long dim = 0);
Tensor matmul(const Tensor &, const Tensor &);
Tensor relu(const Tensor &);
Tensor conv2d(const Tensor &input, const Tensor &weight);
struct Context {
  void setBenchmarkCuDNN(bool);
  void setDeterministicCuDNN(bool);
  void setDeterministicAlgorithms(bool, bool warn_only = false);
};
Context &globalContext();
} // namespace at
namespace torch {
using c10::nullopt;
using c10::optional;
using namespace at;
using at::Tensor;
using c10::Device;
using c10::DeviceType;
using c10::TensorOptions;
using c10::kCPU;
using c10::kCUDA;
using c10::kFloat;
using c10::kLong;
using c10::kHalf;
using c10::kDouble;
using c10::kFloat32;
using c10::kByte;
using c10::kU8;
Tensor rand(IntArrayRef size, TensorOptions options = {});
Tensor randn(IntArrayRef size, TensorOptions options = {});
Tensor zeros(IntArrayRef size, TensorOptions options = {});
Tensor ones(IntArrayRef size, TensorOptions options = {});
Tensor empty(IntArrayRef size, TensorOptions options = {});
Tensor full(IntArrayRef size, Scalar fill, TensorOptions options = {});
Tensor arange(Scalar end, TensorOptions options = {});
Tensor tensor(std::initializer_list<double> values, TensorOptions options = {});
struct NoGradGuard {
  NoGradGuard();
  ~NoGradGuard();
};
namespace nn {
namespace holder_detail {
template <bool B> struct enable_if {};
template <> struct enable_if<true> { using type = void; };
} // namespace holder_detail
class Module {
public:
  virtual ~Module();
  template <class M> std::shared_ptr<M> register_module(const char *, std::shared_ptr<M>);
  template <class Holder> Holder register_module(const char *, Holder); // a ModuleHolder (Conv2d)
  Tensor register_parameter(const char *, Tensor);
  Tensor register_buffer(const char *, Tensor);
  void to(Device);
  void to(ScalarType);
  void cuda();
  void train(bool on = true);
  void eval();
  std::vector<Tensor> parameters() const;
};
struct LinearImpl : Module {
  LinearImpl(long in, long out);
  Tensor forward(const Tensor &);
};
struct Linear {
  Linear(long in, long out);
  LinearImpl *operator->();
};
// As libtorch's: the holder builds its module from the arguments it is given (a template, so the
// module's constructor is called from library code), is empty with nullptr, or shares a module.
template <class Contained> class ModuleHolder {
protected:
  std::shared_ptr<Contained> impl_;

public:
  ModuleHolder();
  ModuleHolder(decltype(nullptr));
  ModuleHolder(std::shared_ptr<Contained>);
  template <class Head, class... Tail,
            class = typename holder_detail::enable_if<!__is_base_of(ModuleHolder, __remove_cvref(Head)) ||
                                                      (sizeof...(Tail) > 0)>::type>
  explicit ModuleHolder(Head &&head, Tail &&...tail) {
    impl_.p = new Contained(static_cast<Head &&>(head), static_cast<Tail &&>(tail)...);
  }
  Contained *operator->();
  Tensor operator()(const Tensor &);
};
struct Conv2dOptions {
  Conv2dOptions(long in, long out, long kernel);
};
struct Conv2dImpl : Module {
  explicit Conv2dImpl(Conv2dOptions);
  Tensor forward(const Tensor &);
};
struct Conv2d : ModuleHolder<Conv2dImpl> {
  Conv2d(decltype(nullptr));
  Conv2d(Conv2dOptions);
};
namespace functional {
Tensor relu(const Tensor &);
Tensor cross_entropy(const Tensor &, const Tensor &);
Tensor mse_loss(const Tensor &, const Tensor &);
} // namespace functional
} // namespace nn
namespace optim {
struct SGDOptions {
  SGDOptions(double lr);
};
struct Optimizer {
  void zero_grad();
  void step();
};
struct SGD : Optimizer {
  SGD(std::vector<Tensor> params, SGDOptions options);
};
struct Adam : Optimizer {
  Adam(std::vector<Tensor> params, double lr);
};
} // namespace optim
// torch::data as libtorch shapes it (the templates and bases torchlint reads: Example<>,
// Dataset<Self>::get overridden, MapDataset<Source, Stack<>>, DataLoaderBase<Dataset, Batch, ...>).
namespace data {
template <class Data = Tensor, class Target = Tensor> struct Example {
  Example();
  Example(Data data, Target target);
  Data data;
  Target target;
};
namespace transforms {
template <class T = Example<>> struct Stack {};
} // namespace transforms
namespace datasets {
template <class Source, class Transform> struct MapDataset {
  using BatchType = Example<>;
};
template <class Self, class Batch> struct BatchDataset {
  using BatchType = Batch;
  virtual ~BatchDataset() {}
  template <class T> MapDataset<Self, T> map(T transform) &&;
};
template <class Self, class SingleExample = Example<>>
struct Dataset : BatchDataset<Self, std::vector<SingleExample>> {
  virtual SingleExample get(size_t index) = 0;
  virtual std::optional<size_t> size() const = 0;
};
} // namespace datasets
namespace samplers {
struct RandomSampler {};
} // namespace samplers
template <class Dataset, class Batch, class Request> struct DataLoaderBase {
  Batch *begin();
  Batch *end();
};
template <class Dataset, class Sampler = samplers::RandomSampler>
struct StatelessDataLoader : DataLoaderBase<Dataset, typename Dataset::BatchType, size_t> {};
template <class Sampler = samplers::RandomSampler, class Dataset>
std::unique_ptr<StatelessDataLoader<Dataset, Sampler>> make_data_loader(Dataset dataset, size_t batch_size);
using DataLoader = StatelessDataLoader<datasets::MapDataset<int, transforms::Stack<>>>;
} // namespace data
namespace cuda {
bool is_available();
void synchronize();
} // namespace cuda
namespace autograd {
struct AutogradContext {};
// A custom autograd function: `struct MyFn : Function<MyFn> { static Tensor forward(AutogradContext *,
// ...); }`, called as MyFn::apply(...).
template <class T> struct Function {
  template <class... Args> static Tensor apply(Args &&...args);
};
} // namespace autograd
} // namespace torch

// TORCH_MODULE(Net): the holder class Net of NetImpl, with ModuleHolder's constructors.
#define TORCH_MODULE(Name)                                                                         \
  class Name : public torch::nn::ModuleHolder<Name##Impl> {                                         \
  public:                                                                                          \
    using torch::nn::ModuleHolder<Name##Impl>::ModuleHolder;                                        \
    using Impl = Name##Impl;                                                                       \
  }
