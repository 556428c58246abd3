# A condition evaluated by jq, as the curl | jq peer of `condtest eval --all` in bench/condtest:
# reads a record of GET /conditions/:id, prints ID<TAB>NAME<TAB>true|false. $a: the arguments.
def operand:
  if .type == "string" then (.value // .data)
  elif .type == "argument" then $a[.argumentNumber - 1]
  elif .type == "arg" then $a[.value - 1]
  else error("unknown operand") end;
def holds:
  if .op == "and" then all(.args[]; holds)
  elif .op == "or" then any(.args[]; holds)
  elif .op == "not" then (.args[0] | holds | not)
  else (.args[0] | operand) as $l | (.args[1] | operand) as $r
    | if .op == "eq" then $l == $r
      elif .op == "ne" then $l != $r
      elif .op == "containsString" then ($l | contains($r))
      elif .op == "startsWith" then ($l | startswith($r))
      elif .op == "endsWith" then ($l | endswith($r))
      else error("unknown operator") end
  end;
"\(._id)\t\(.name)\t\(.condition | holds)"
