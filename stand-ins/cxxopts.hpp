// torchlint stand-in for cxxopts (https://github.com/jarro2783/cxxopts): declarations of its
// public interface only, used when the real cxxopts.hpp is not installed. See README.md.
#pragma once
#include <cstddef>
#include <exception>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

namespace cxxopts {

class Value : public std::enable_shared_from_this<Value> {
public:
  virtual ~Value() = default;
  std::shared_ptr<Value> default_value(const std::string &value);
  std::shared_ptr<Value> implicit_value(const std::string &value);
  std::shared_ptr<Value> no_implicit_value();
  bool has_default() const;
  bool is_boolean() const;
};

template <typename T> std::shared_ptr<Value> value();
template <typename T> std::shared_ptr<Value> value(T &store);

class OptionValue {
public:
  template <typename T> const T &as() const;
  std::size_t count() const noexcept;
  bool has_default() const noexcept;
};

class KeyValue {
public:
  const std::string &key() const;
  const std::string &value() const;
  template <typename T> T as() const;
};

class ParseResult {
public:
  std::size_t count(const std::string &option) const;
  const OptionValue &operator[](const std::string &option) const;
  const std::vector<KeyValue> &arguments() const;
  const std::vector<std::string> &unmatched() const;
  std::string arguments_string() const;
  template <typename T> const T &as_optional(const std::string &option) const;
};

struct Option {
  Option(std::string opts, std::string desc, std::shared_ptr<const Value> value = ::cxxopts::value<bool>(),
         std::string arg_help = "");
};

class OptionAdder {
public:
  OptionAdder &operator()(const std::string &opts, const std::string &desc,
                          const std::shared_ptr<const Value> &value = ::cxxopts::value<bool>(),
                          std::string arg_help = "");
};

class Options {
public:
  explicit Options(std::string program_name, std::string help_string = "");
  Options &positional_help(std::string help_text);
  Options &custom_help(std::string help_text);
  Options &show_positional_help();
  Options &allow_unrecognised_options();
  Options &set_width(std::size_t width);
  Options &set_tab_expansion(bool expansion = true);
  ParseResult parse(int argc, const char *const *argv);
  OptionAdder add_options(std::string group = "");
  void add_option(const std::string &group, const std::string &s, const std::string &l, std::string desc,
                  const std::shared_ptr<const Value> &value, std::string arg_help);
  void add_option(const std::string &group, const Option &option);
  void add_options(const std::string &group, std::initializer_list<Option> options);
  void parse_positional(std::string option);
  void parse_positional(std::vector<std::string> options);
  void parse_positional(std::initializer_list<std::string> options);
  std::string help(const std::vector<std::string> &groups = {}, bool print_usage = true) const;
  std::vector<std::string> groups() const;
};

class exception : public std::exception {
public:
  explicit exception(std::string message);
  const char *what() const noexcept override;
};
using OptionException = exception;
class OptionSpecException : public exception { using exception::exception; };
class OptionParseException : public exception { using exception::exception; };
namespace exceptions {
using exception = cxxopts::exception;
using specification = OptionSpecException;
using parsing = OptionParseException;
} // namespace exceptions

} // namespace cxxopts
