// torchlint stand-in for nlohmann/json (https://json.nlohmann.me): declarations of its commonly used
// interface only, used when the real nlohmann/json.hpp is not installed. See ../README.md.
#pragma once
// What the real json.hpp includes for its users too (a project that writes std::array or
// std::unordered_map with only json.hpp included compiles against the real one).
#include <algorithm>
#include <array>
#include <cstddef>
#include <forward_list>
#include <functional>
#include <iterator>
#include <limits>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <tuple>
#include <unordered_map>
#include <valarray>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>
#if __cplusplus >= 201703L
// (The real one includes them in C++17: its conversions from and to std::optional, std::string_view.)
#include <optional>
#include <string_view>
#endif

namespace nlohmann {

template <typename T = void, typename SFINAE = void> struct adl_serializer;

class json {
public:
  enum class value_t : std::uint8_t {
    null, object, array, string, boolean, number_integer, number_unsigned, number_float, binary, discarded
  };
  using size_type = std::size_t;
  using string_t = std::string;
  using boolean_t = bool;
  using number_integer_t = std::int64_t;
  using number_unsigned_t = std::uint64_t;
  using number_float_t = double;
  using object_t = std::map<std::string, json>;
  using array_t = std::vector<json>;
  using value_type = json;
  using reference = json &;
  using const_reference = const json &;
  using initializer_list_t = std::initializer_list<json>;

  class iterator {
  public:
    json &operator*() const;
    json *operator->() const;
    iterator &operator++();
    iterator operator++(int);
    iterator &operator--();
    iterator operator+(std::ptrdiff_t i) const;
    std::ptrdiff_t operator-(const iterator &other) const;
    bool operator==(const iterator &other) const;
    bool operator!=(const iterator &other) const;
    const std::string &key() const;
    json &value() const;
  };
  using const_iterator = iterator;
  using reverse_iterator = iterator;
  using const_reverse_iterator = iterator;
  class iteration_proxy {
  public:
    iterator begin() const;
    iterator end() const;
  };

  json();
  json(std::nullptr_t);
  json(const json &other);
  json(json &&other) noexcept;
  json(initializer_list_t init);
  template <typename T, typename = std::enable_if_t<!std::is_same_v<std::decay_t<T>, json>>> json(T &&value);
  json &operator=(json other);

  static json parse(const std::string &text, std::nullptr_t cb = nullptr, bool allow_exceptions = true,
                    bool ignore_comments = false);
  static json parse(const char *text, std::nullptr_t cb = nullptr, bool allow_exceptions = true,
                    bool ignore_comments = false);
  static json parse(std::istream &stream, std::nullptr_t cb = nullptr, bool allow_exceptions = true,
                    bool ignore_comments = false);
  static json parse(std::istream &&stream, std::nullptr_t cb = nullptr, bool allow_exceptions = true,
                    bool ignore_comments = false);
  template <typename It> static json parse(It first, It last, std::nullptr_t cb = nullptr,
                                           bool allow_exceptions = true, bool ignore_comments = false);
  template <typename Input> static bool accept(Input &&input, bool ignore_comments = false);
  static json array(initializer_list_t init = {});
  static json object(initializer_list_t init = {});
  static json meta();

  template <typename T> T get() const;
  template <typename T> T &get_ref();
  template <typename T> const T &get_ref() const;
  template <typename T> T &get_to(T &v) const;
  template <typename T> T get_ptr();
  template <typename T, typename = std::enable_if_t<!std::is_pointer_v<T> && !std::is_same_v<T, std::nullptr_t>>>
  operator T() const;

  json &operator[](const std::string &key);
  const json &operator[](const std::string &key) const;
  json &operator[](const char *key);
  const json &operator[](const char *key) const;
  template <typename I, typename = std::enable_if_t<std::is_integral_v<I>>> json &operator[](I idx);
  template <typename I, typename = std::enable_if_t<std::is_integral_v<I>>> const json &operator[](I idx) const;
  json &at(const std::string &key);
  const json &at(const std::string &key) const;
  json &at(size_type idx);
  const json &at(size_type idx) const;
  template <typename V> std::decay_t<V> value(const std::string &key, V &&default_value) const;
  std::string value(const std::string &key, const char *default_value) const;
  bool contains(const std::string &key) const;
  size_type count(const std::string &key) const;
  iterator find(const std::string &key);
  iterator find(const std::string &key) const;
  size_type erase(const std::string &key);
  void erase(size_type idx);
  iterator erase(iterator pos);

  json &front();
  const json &front() const;
  json &back();
  const json &back() const;
  iterator begin();
  iterator begin() const;
  iterator end();
  iterator end() const;
  iterator cbegin() const;
  iterator cend() const;
  iteration_proxy items();
  iteration_proxy items() const;

  bool empty() const noexcept;
  size_type size() const noexcept;
  size_type max_size() const noexcept;
  void clear() noexcept;
  void push_back(json &&val);
  void push_back(const json &val);
  void push_back(initializer_list_t init);
  json &operator+=(const json &val);
  template <typename... Args> json &emplace_back(Args &&...args);
  template <typename... Args> std::pair<iterator, bool> emplace(Args &&...args);
  void update(const json &j, bool merge_objects = false);
  void swap(json &other) noexcept;

  value_t type() const noexcept;
  const char *type_name() const noexcept;
  bool is_null() const noexcept;
  bool is_boolean() const noexcept;
  bool is_number() const noexcept;
  bool is_number_integer() const noexcept;
  bool is_number_unsigned() const noexcept;
  bool is_number_float() const noexcept;
  bool is_object() const noexcept;
  bool is_array() const noexcept;
  bool is_string() const noexcept;
  bool is_primitive() const noexcept;
  bool is_structured() const noexcept;
  bool is_discarded() const noexcept;
  operator value_t() const noexcept;

  std::string dump(int indent = -1, char indent_char = ' ', bool ensure_ascii = false) const;
  json flatten() const;
  json unflatten() const;
  json patch(const json &json_patch) const;
  static json diff(const json &source, const json &target, const std::string &path = "");

  friend bool operator==(const json &lhs, const json &rhs) noexcept;
  friend bool operator!=(const json &lhs, const json &rhs) noexcept;
  friend bool operator<(const json &lhs, const json &rhs) noexcept;
  friend std::ostream &operator<<(std::ostream &o, const json &j);
  friend std::istream &operator>>(std::istream &i, json &j);
};

using ordered_json = json;
using basic_json = json;

class json_pointer {
public:
  explicit json_pointer(const std::string &s = "");
  std::string to_string() const;
};

namespace detail {
class exception : public std::exception {
public:
  const char *what() const noexcept override;
  const int id;
};
class parse_error : public exception {};
class invalid_iterator : public exception {};
class type_error : public exception {};
class out_of_range : public exception {};
class other_error : public exception {};
} // namespace detail
using detail::exception;
using detail::invalid_iterator;
using detail::other_error;
using detail::out_of_range;
using detail::parse_error;
using detail::type_error;

inline namespace literals {
inline namespace json_literals {
json operator""_json(const char *s, std::size_t n);
} // namespace json_literals
} // namespace literals

} // namespace nlohmann

#define NLOHMANN_DEFINE_TYPE_INTRUSIVE(Type, ...)                                                               \
  friend void to_json(nlohmann::json &nlohmann_json_j, const Type &nlohmann_json_t);                         \
  friend void from_json(const nlohmann::json &nlohmann_json_j, Type &nlohmann_json_t);
#define NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Type, ...)                                                           \
  void to_json(nlohmann::json &nlohmann_json_j, const Type &nlohmann_json_t);                                \
  void from_json(const nlohmann::json &nlohmann_json_j, Type &nlohmann_json_t);
