"""The witness engine: values a schema accepts (and near misses it refuses), each confirmed
by the reference evaluator, within a step budget per contract. Test derivation
(:mod:`toolshape.codegen.cases`) and ``toolshape diff`` both use it."""
