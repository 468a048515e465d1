// The runner's options as one table: each row says how the option is spelled and parsed, which Options field
// it sets, how it reads in --help, how a parsed value is spelled again (a worker's command line, the command
// that re-runs one case). parseOptions, usageText and both command lines read this table; none restates it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "test_common/harness/stages/options.h"

namespace cts {

// The state of parseOptions while it sets the options one by one.
struct OptionParse {
    Options& out;
    std::map<std::string, std::string> given = {};  // options given: name -> value (the first one)
    std::string name = {}, value = {};              // the option being set, for messages
    bool wasGiven(const char* option) const { return given.count(option) != 0; }
    // The usage error of a value outside the option's grammar.
    std::string expected(const std::string& want) const;
};

// One option given again: no value (a flag, bare --json) or `=value`.
using OptionValue = std::optional<std::string>;

struct OptionRow {
    const char* name = nullptr;        // without "--"; nullptr: a line of --help only
    const char* value_word = nullptr;  // FILE, N, ...; nullptr: a flag
    const char* example = nullptr;     // a valid value: in "needs =FILE, e.g." and the round-trip test
    bool equals_only = false;       // a file or directory: `--json api` would make the pattern the file name
    bool repeatable = false;        // the values add up (--tag, --filter, ...) instead of "given twice"
    const char* section = nullptr;  // --help: a section with this heading starts here
    const char* label = nullptr;    // --help column 1 when not --name[=VALUE_WORD]
    const char* help = nullptr;     // --help column 2, lines after the first indented; nullptr: not listed
    bool internal = false;          // not for users (--worker): not in --help
    // What the option sets: a flag, a text (an empty value is an error saying `want`), a list of texts, or
    // `set` for anything with a grammar of its own (returns "" or the usage error).
    bool Options::*flag = nullptr;
    std::string Options::*text = nullptr;
    std::vector<std::string> Options::*list = nullptr;
    const char* want = nullptr;
    std::string (*set)(OptionParse&, const std::string& value) = nullptr;
    bool (*bare)(OptionParse&) =
        nullptr;  // a value option alone: true when that has a meaning (--list --json)
    // The option given again so that parsing yields the same Options (flag, text and list: from the field).
    std::vector<OptionValue> (*echo)(const Options&) = nullptr;
    // Place on a worker's command line and in the command that re-runs one case; 0: not passed there.
    int worker = 0, rerun = 0;

    OptionRow& in(const char* heading) { return section = heading, *this; }
    OptionRow& helps(const char* text) { return help = text, *this; }
    OptionRow& labelled(const char* text) { return label = text, *this; }
    OptionRow& fileValue() { return equals_only = true, *this; }
    OptionRow& adds() { return repeatable = true, *this; }
    OptionRow& forWorkersOnly() { return internal = true, *this; }
    OptionRow& alone(bool (*meaning)(OptionParse&)) { return bare = meaning, *this; }
    OptionRow& echoes(std::vector<OptionValue> (*values)(const Options&)) { return echo = values, *this; }
    OptionRow& toWorker(int place) { return worker = place, *this; }
    OptionRow& toRerun(int place) { return rerun = place, *this; }
};

const std::vector<OptionRow>& optionTable();
const OptionRow* findOption(const std::string& name);

// Sets the option `row` with `value` (`--name=value` or `--name value`), refusing a single-valued one given
// twice with different values.
std::string setOption(OptionParse& parse, const OptionRow& row, const std::string& value);

struct OptionArg {
    std::string name;  // with "--"
    OptionValue value;
    std::string text() const { return value ? name + "=" + *value : name; }
};
// Every option of `o` as arguments, in table order: parsing them yields the options of `o` again.
std::vector<OptionArg> echoOptions(const Options& o);
// The options a worker gets, or the rerun command repeats, in their places (OptionRow::worker, rerun).
enum class OptionUse { Worker, Rerun };
std::vector<OptionArg> optionArgs(const Options& o, OptionUse use);

// The grammars an option shares with an environment variable: CL_PLATFORM_INDEX, CL_DEVICE_INDEX (an index
// up to 1000000) and GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS (I/N with 0 <= I < N).
bool parseIndex(const std::string& text, int& out);
bool parseShard(const std::string& text, unsigned& index, unsigned& count);

// The sections of --help that list the options.
std::string optionsHelp();

}  // namespace cts
