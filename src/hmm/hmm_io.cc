// Model files (JSON) and sequence files (one sequence per line); formats in docs/hmm.md.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "kessel/error.h"
#include "kessel/hmm.h"
#include "util/atomic_file.h"
#include "util/json_strict.h"

namespace kessel::hmm {

namespace {

using nlohmann::json;

std::string read_file(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError("hmm: cannot open " + std::string(what) + " file '" + path + "'");
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

long line_at(const std::string& text, std::size_t byte) {
  byte = std::min(byte, text.size());
  return 1 + static_cast<long>(std::count(text.begin(), text.begin() + byte, '\n'));
}

// Line of the first `"key"` in the text (1 when absent): where a field-level error points.
long key_line(const std::string& text, const std::string& key) {
  const auto pos = text.find("\"" + key + "\"");
  return pos == std::string::npos ? 1 : line_at(text, pos);
}

std::vector<double> flat_matrix(const json& j, const std::string& key, Index* rows, Index* cols,
                                const std::string& text, const std::string& name) {
  const long line = key_line(text, key);
  if (!j.contains(key)) throw ParseError(name, 1, "missing field \"" + key + "\"");
  const json& m = j.at(key);
  if (!m.is_array() || m.empty()) {
    throw ParseError(name, line, "\"" + key + "\" must be a non-empty array of arrays of numbers");
  }
  std::vector<double> out;
  *rows = static_cast<Index>(m.size());
  *cols = -1;
  for (std::size_t r = 0; r < m.size(); ++r) {
    const json& row = m[r];
    if (!row.is_array()) {
      throw ParseError(name, line, "\"" + key + "\" row " + std::to_string(r) + " is not an array");
    }
    if (*cols < 0) *cols = static_cast<Index>(row.size());
    if (static_cast<Index>(row.size()) != *cols || row.empty()) {
      throw ParseError(name, line,
                       "\"" + key + "\" is ragged or empty: row " + std::to_string(r) + " has " +
                           std::to_string(row.size()) + " entries, row 0 has " +
                           std::to_string(*cols));
    }
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (!row[c].is_number()) {
        throw ParseError(name, line,
                         "\"" + key + "\"[" + std::to_string(r) + "][" + std::to_string(c) +
                             "] is " + row[c].dump() + ", not a number");
      }
      out.push_back(row[c].get<double>());
    }
  }
  return out;
}

std::vector<double> vector_field(const json& j, const std::string& key, const std::string& text,
                                 const std::string& name) {
  if (!j.contains(key)) throw ParseError(name, 1, "missing field \"" + key + "\"");
  const json& v = j.at(key);
  const long line = key_line(text, key);
  if (!v.is_array() || v.empty()) {
    throw ParseError(name, line, "\"" + key + "\" must be a non-empty array of numbers");
  }
  std::vector<double> out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_number()) {
      throw ParseError(name, line,
                       "\"" + key + "\"[" + std::to_string(i) + "] is " + v[i].dump() +
                           ", not a number");
    }
    out.push_back(v[i].get<double>());
  }
  return out;
}

void append_row(std::string& s, const double* x, Index n) {
  s += "[";
  for (Index i = 0; i < n; ++i) {
    if (i) s += ", ";
    s += json(x[i]).dump();  // shortest representation that reads back bit-identical
  }
  s += "]";
}

// "covariances": S matrices of D x D numbers (gaussian-full), flattened [S, D, D].
std::vector<double> covariance_field(const json& j, Index S, Index D, const std::string& text,
                                     const std::string& name) {
  const long line = key_line(text, "covariances");
  if (!j.contains("covariances")) throw ParseError(name, 1, "missing field \"covariances\"");
  const json& c = j.at("covariances");
  const std::string shape = std::to_string(S) + " matrices of " + std::to_string(D) + "x" +
                            std::to_string(D) + " numbers (S=" + std::to_string(S) +
                            " states, D=" + std::to_string(D) + " from \"means\")";
  if (!c.is_array() || static_cast<Index>(c.size()) != S) {
    throw ParseError(name, line, "\"covariances\" must hold " + shape);
  }
  std::vector<double> out;
  for (Index s = 0; s < S; ++s) {
    const json& m = c[s];
    bool ok = m.is_array() && static_cast<Index>(m.size()) == D;
    for (Index i = 0; ok && i < D; ++i) {
      ok = m[i].is_array() && static_cast<Index>(m[i].size()) == D;
      for (Index k = 0; ok && k < D; ++k) {
        ok = m[i][k].is_number();
        if (ok) out.push_back(m[i][k].get<double>());
      }
    }
    if (!ok) {
      throw ParseError(name, line,
                       "\"covariances\"[" + std::to_string(s) + "] is not a " + std::to_string(D) +
                           "x" + std::to_string(D) + " matrix of numbers (need " + shape + ")");
    }
  }
  return out;
}

void append_matrix(std::string& s, const char* key, const std::vector<double>& m, Index rows,
                   Index cols) {
  s += ",\n  \"" + std::string(key) + "\": [\n";
  for (Index r = 0; r < rows; ++r) {
    s += "    ";
    append_row(s, m.data() + r * cols, cols);
    s += r + 1 < rows ? ",\n" : "\n";
  }
  s += "  ]";
}

// Splits on any of `seps`, keeping empty pieces.
std::vector<std::string_view> split(std::string_view s, std::string_view seps) {
  std::vector<std::string_view> out;
  std::size_t begin = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || seps.find(s[i]) != std::string_view::npos) {
      out.push_back(s.substr(begin, i - begin));
      begin = i + 1;
    }
  }
  return out;
}

std::vector<std::string_view> tokens(std::string_view s, std::string_view seps) {
  std::vector<std::string_view> out;
  for (auto piece : split(s, seps)) {
    if (!piece.empty()) out.push_back(piece);
  }
  return out;
}

bool blank(std::string_view s) {
  return s.find_first_not_of(" \t\r") == std::string_view::npos;
}

}  // namespace

Model model_from_json_text(const std::string& text, const std::string& name) {
  json j;
  try {
    j = util::parse_json_strict(text);
  } catch (const util::DuplicateJsonKey& e) {
    // The line of the key's second occurrence, the one that would have won.
    const std::string quoted = "\"" + e.key() + "\"";
    const auto first = text.find(quoted);
    const auto second = first == std::string::npos ? first : text.find(quoted, first + 1);
    throw ParseError(name, second == std::string::npos ? 1 : line_at(text, second), e.what());
  } catch (const util::JsonStructureError& e) {
    throw ParseError(name, 1, e.what());
  } catch (const json::parse_error& e) {
    throw ParseError(name, line_at(text, e.byte > 0 ? e.byte - 1 : 0),
                     std::string("invalid JSON: ") + e.what());
  }
  if (!j.is_object()) throw ParseError(name, 1, "the model must be a JSON object");
  if (!j.contains("type") || !j.at("type").is_string()) {
    throw ParseError(name, key_line(text, "type"),
                     "field \"type\" must be \"categorical\", \"gaussian\" or \"gaussian-full\"");
  }
  const std::string type = j.at("type").get<std::string>();
  if (type != "categorical" && type != "gaussian" && type != "gaussian-full") {
    throw ParseError(name, key_line(text, "type"),
                     "unknown type \"" + type +
                         "\" (expected \"categorical\", \"gaussian\" or \"gaussian-full\")");
  }
  // Unknown keys are refused, not ignored: a typo ("transitons") or a key of the other emission type
  // ("means" in a categorical model) would otherwise pass for a model the file does not describe.
  {
    const std::vector<std::string> allowed =
        type == "categorical"
            ? std::vector<std::string>{"type", "start", "transitions", "emissions"}
        : type == "gaussian"
            ? std::vector<std::string>{"type", "start", "transitions", "means", "variances"}
            : std::vector<std::string>{"type", "start", "transitions", "means", "covariances"};
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (std::find(allowed.begin(), allowed.end(), it.key()) != allowed.end()) continue;
      std::string expected;
      for (const auto& k : allowed) expected += (expected.empty() ? "" : ", ") + k;
      throw ParseError(name, key_line(text, it.key()),
                       "unknown key \"" + it.key() + "\" in a " + type + " model (expected " + expected + ")");
    }
  }
  Model m;
  m.type = type == "categorical" ? EmissionType::categorical
           : type == "gaussian"  ? EmissionType::gaussian
                                 : EmissionType::gaussian_full;
  m.start = vector_field(j, "start", text, name);
  m.n_states = static_cast<Index>(m.start.size());
  Index rows = 0, cols = 0;
  m.transitions = flat_matrix(j, "transitions", &rows, &cols, text, name);
  if (rows != m.n_states || cols != m.n_states) {
    throw ParseError(name, key_line(text, "transitions"),
                     "\"transitions\" is " + std::to_string(rows) + "x" + std::to_string(cols) +
                         " but \"start\" has S=" + std::to_string(m.n_states) + " states");
  }
  const std::vector<std::string> keys =
      m.type == EmissionType::categorical ? std::vector<std::string>{"emissions"}
      : m.type == EmissionType::gaussian  ? std::vector<std::string>{"means", "variances"}
                                          : std::vector<std::string>{"means"};
  for (const auto& key : keys) {
    auto v = flat_matrix(j, key, &rows, &cols, text, name);
    if (rows != m.n_states) {
      throw ParseError(name, key_line(text, key),
                       "\"" + key + "\" has " + std::to_string(rows) + " rows but \"start\" has S=" +
                           std::to_string(m.n_states) + " states");
    }
    if (key == "emissions") {
      m.n_symbols = cols;
      m.emissions = std::move(v);
    } else if (key == "means") {
      m.dim = cols;
      m.means = std::move(v);
    } else {
      if (cols != m.dim) {
        throw ParseError(name, key_line(text, key),
                         "\"variances\" has " + std::to_string(cols) + " columns but \"means\" has " +
                             std::to_string(m.dim));
      }
      m.variances = std::move(v);
    }
  }
  if (m.type == EmissionType::gaussian_full) {
    m.covariances = covariance_field(j, m.n_states, m.dim, text, name);
  }
  try {
    m.validate("model");
  } catch (const InvalidArgument& e) {
    // validate's messages read "model: <field> ..."; point at that field's line.
    const std::string msg = e.what();
    long line = 1;
    for (const char* key :
         {"start", "transitions", "emissions", "means", "variances", "covariances"}) {
      if (msg.rfind(std::string("model: ") + key, 0) == 0) line = key_line(text, key);
    }
    throw ParseError(name, line, msg.substr(std::string("model: ").size()));
  }
  return m;
}

Model read_model(const std::string& path) {
  return model_from_json_text(read_file(path, "model"), path);
}

std::string model_to_json_text(const Model& m) {
  m.validate("hmm::model_to_json_text");
  const Index S = m.n_states;
  std::string s = "{\n  \"type\": ";
  s += std::string("\"") + emission_name(m.type) + "\"";
  s += ",\n  \"start\": ";
  append_row(s, m.start.data(), S);
  append_matrix(s, "transitions", m.transitions, S, S);
  if (m.type == EmissionType::categorical) {
    append_matrix(s, "emissions", m.emissions, S, m.n_symbols);
  } else if (m.type == EmissionType::gaussian) {
    append_matrix(s, "means", m.means, S, m.dim);
    append_matrix(s, "variances", m.variances, S, m.dim);
  } else {
    append_matrix(s, "means", m.means, S, m.dim);
    s += ",\n  \"covariances\": [\n";
    for (Index k = 0; k < S; ++k) {
      s += "    [";
      for (Index r = 0; r < m.dim; ++r) {
        if (r > 0) s += ", ";
        append_row(s, m.covariances.data() + (k * m.dim + r) * m.dim, m.dim);
      }
      s += k + 1 < S ? "],\n" : "]\n";
    }
    s += "  ]";
  }
  return s + "\n}\n";
}

void write_model(const std::string& path, const Model& m) {
  util::write_file_atomically(path, model_to_json_text(m), "hmm: model file '" + path + "'");
}

std::vector<Sequence> sequences_from_text(const std::string& text, const Model& model,
                                          const std::string& name) {
  model.validate("hmm::sequences_from_text");
  std::vector<Sequence> out;
  const auto lines = split(text, "\n");
  const bool categorical = model.type == EmissionType::categorical;
  for (std::size_t li = 0; li < lines.size(); ++li) {
    const long line = static_cast<long>(li) + 1;
    std::string_view ln = lines[li];
    if (blank(ln) || ln.find_first_not_of(" \t") == ln.find('#')) continue;  // blank or comment
    Sequence seq;
    if (categorical) {
      for (auto tok : tokens(ln, " \t\r")) {
        long long v = -1;
        const auto [end, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
        if (ec != std::errc() || end != tok.data() + tok.size() || v < 0) {
          throw ParseError(name, line, "step " + std::to_string(seq.symbols.size()) + ": '" +
                                           std::string(tok) + "' is not a non-negative integer");
        }
        if (v >= model.n_symbols) {
          throw ParseError(name, line, "step " + std::to_string(seq.symbols.size()) +
                                           ": symbol " + std::to_string(v) + " is outside [0, " +
                                           std::to_string(model.n_symbols) + ")");
        }
        seq.symbols.push_back(static_cast<std::int32_t>(v));
      }
      seq.length = static_cast<Index>(seq.symbols.size());
    } else {
      auto observations = split(ln, ";");
      if (observations.size() > 1 && blank(observations.back())) observations.pop_back();
      for (auto obs : observations) {
        const auto step = std::to_string(seq.length);
        const auto parts = tokens(obs, " \t\r,");
        if (static_cast<Index>(parts.size()) != model.dim) {
          throw ParseError(name, line, "step " + step + " has " + std::to_string(parts.size()) +
                                           " values but the model has D=" +
                                           std::to_string(model.dim));
        }
        for (auto tok : parts) {
          double v = 0.0;
          const auto [end, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
          if (ec != std::errc() || end != tok.data() + tok.size()) {
            throw ParseError(name, line,
                             "step " + step + ": '" + std::string(tok) + "' is not a number");
          }
          if (!std::isfinite(v)) {
            throw ParseError(name, line, "step " + step + ": value '" + std::string(tok) +
                                             "' is not finite (NaN/inf)");
          }
          seq.values.push_back(v);
        }
        ++seq.length;
      }
    }
    out.push_back(std::move(seq));
  }
  if (out.empty()) {
    throw ParseError(name, static_cast<long>(lines.size()),
                     "no sequences (the file is empty or has only blank/comment lines)");
  }
  return out;
}

std::vector<Sequence> read_sequences(const std::string& path, const Model& model) {
  return sequences_from_text(read_file(path, "sequence"), model, path);
}

}  // namespace kessel::hmm
