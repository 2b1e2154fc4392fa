// torchlint stand-in for p-ranav/argparse (https://github.com/p-ranav/argparse): declarations of
// its public interface only, used when the real argparse/argparse.hpp is not installed. See
// ../README.md.
#pragma once
#include <cstddef>
#include <iostream>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace argparse {

enum class default_arguments : unsigned { none = 0, help = 1, version = 2, all = help | version };
enum class nargs_pattern { optional, any, at_least_one };

class Argument {
public:
  Argument &help(std::string help_text);
  Argument &metavar(std::string metavar);
  template <typename T> Argument &default_value(T &&value);
  Argument &default_value(const char *value);
  Argument &required();
  template <typename T> Argument &implicit_value(T &&value);
  Argument &flag();
  template <typename F, typename... Args> Argument &action(F &&callable, Args &&...bound_args);
  Argument &append();
  Argument &store_into(bool &var);
  Argument &store_into(int &var);
  Argument &store_into(double &var);
  Argument &store_into(std::string &var);
  template <char Shape, typename T> Argument &scan();
  Argument &nargs(std::size_t num_args);
  Argument &nargs(std::size_t num_args_min, std::size_t num_args_max);
  Argument &nargs(nargs_pattern pattern);
  Argument &remaining();
  template <typename... T> Argument &choices(T &&...choices);
  template <typename T> bool operator==(const T &rhs) const;
};

class ArgumentParser {
public:
  explicit ArgumentParser(std::string program_name = {}, std::string version = "1.0",
                          default_arguments add_args = default_arguments::all, bool exit_on_default_arguments = true,
                          std::ostream &os = std::cout);
  template <typename... Targs> Argument &add_argument(Targs... names);
  ArgumentParser &add_description(std::string description);
  ArgumentParser &add_epilog(std::string epilog);
  void add_subparser(ArgumentParser &parser);
  void parse_args(int argc, const char *const argv[]);
  void parse_args(const std::vector<std::string> &arguments);
  std::vector<std::string> parse_known_args(int argc, const char *const argv[]);
  template <typename T = std::string> T get(std::string_view arg_name) const;
  template <typename T = std::string> std::optional<T> present(std::string_view arg_name) const;
  bool is_used(std::string_view arg_name) const;
  bool is_subcommand_used(std::string_view subcommand_name) const;
  Argument &operator[](std::string_view arg_name) const;
  std::string help() const;
  std::string usage() const;
  friend std::ostream &operator<<(std::ostream &stream, const ArgumentParser &parser);
};

} // namespace argparse
