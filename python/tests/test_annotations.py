"""The seed README's annotation snippets and the checks on their fields."""

import pytest

import approx_runtime as ar


def get_state(n):
    return n


def test_decision_tree_snippet():
    @ar.Knob(decision_tree=ar.DecisionTree(
        state_function=get_state,
        state_indices=[0],
        thresholds=[100],
        decisions=[0, 2],
        transform_type="loop_perforate"
    ))
    def my_kernel(n, data):
        return data[:n]

    config = ar.get_config(my_kernel)
    assert set(config) == {"decision_tree"}
    dt = config["decision_tree"]
    assert dt.thresholds == [100] and dt.decisions == [0, 2]
    assert dt.state_function is get_state
    assert my_kernel(2, [1, 2, 3]) == [1, 2]  # the function is unchanged


def test_bounds_snippet():
    dt = ar.DecisionTree(
        state_function=get_state,      # (state_args) -> i32
        state_indices=[0],             # which args to pass
        thresholds=[100, 500],         # decision boundaries
        decisions=[0, 1, 2],           # knob values per region
        transform_type="loop_perforate",
        thresholds_lower=[0, 100],
        thresholds_upper=[500, 1000],
    )
    assert dt.thresholds_lower == [0, 100]


def test_safety_contract_and_static_snippets():
    def my_checker(results, inputs):
        return True

    def my_recover(inputs):
        return inputs

    @ar.Knob(safety_contract=ar.SafetyContract(
        checker=my_checker,
        recover=my_recover,
    ))
    @ar.Knob(static_transform=ar.StaticTransform(
        transform_type="loop_perforate",
        knob_val=2
    ))
    def f(x):
        return x

    config = ar.get_config(f)
    assert config["static_transform"].knob_val == 2
    assert config["safety_contract"].checker is my_checker


@pytest.mark.parametrize("kwargs, error, text", [
    (dict(thresholds=[500, 100], decisions=[0, 1, 2]), ValueError,
     "DecisionTree: thresholds must be strictly ascending"),
    (dict(thresholds=[100], decisions=[0, 1, 2]), ValueError,
     "needs 2 decisions, but has 3"),
    (dict(transform_type="loop_perforation"), ValueError,
     "DecisionTree.transform_type: unknown transform type 'loop_perforation'"),
    (dict(thresholds=[100], decisions=[0, -1]), ValueError,
     "decision 1 is -1"),
    (dict(thresholds_lower=[0]), ValueError,
     "thresholds_lower and thresholds_upper must be given together"),
    (dict(thresholds_lower=[200], thresholds_upper=[300]), ValueError,
     "threshold 0 (100) is outside its bounds [200, 300]"),
    (dict(decision_values=[0, 1]), ValueError,
     "decision 1 (2) is not one of decision_values"),
    (dict(thresholds="100"), TypeError,
     "DecisionTree.thresholds must be a list of ints"),
    (dict(thresholds=[1.5]), TypeError, "DecisionTree.thresholds[0] must be an int"),
    (dict(thresholds=[2 ** 40]), ValueError, "does not fit in 32 bits"),
    (dict(state_indices=[]), ValueError, "DecisionTree.state_indices must not be empty"),
    (dict(state_function=3), TypeError, "DecisionTree.state_function"),
    (dict(transform_type="decode_quantize", decisions=[0, 4]), ValueError,
     "decode_quantize has no knob value 4"),
])
def test_decision_tree_errors_name_the_field(kwargs, error, text):
    fields = dict(state_function="s", state_indices=[0], thresholds=[100],
                  decisions=[0, 2], transform_type="loop_perforate")
    fields.update(kwargs)
    with pytest.raises(error) as e:
        ar.DecisionTree(**fields)
    assert text in str(e.value)


def test_static_transform_errors():
    with pytest.raises(ValueError, match="StaticTransform: knob_val must be"):
        ar.StaticTransform(transform_type="loop_perforate", knob_val=-1)
    with pytest.raises(ValueError, match="knob_val 3 is not one of decision_values"):
        ar.StaticTransform(transform_type="loop_perforate", knob_val=3,
                           decision_values=[0, 2])
    with pytest.raises(TypeError, match="StaticTransform.knob_val must be an int"):
        ar.StaticTransform(transform_type="loop_perforate", knob_val="2")


def test_knob_errors():
    with pytest.raises(ValueError, match="not both"):
        ar.Knob(decision_tree=ar.DecisionTree("s", [0], [1], [0, 1], "loop_perforate"),
                static_transform=ar.StaticTransform("loop_perforate", 2))
    with pytest.raises(ValueError, match="needs a decision_tree"):
        ar.Knob()
    with pytest.raises(TypeError, match="Knob.decision_tree must be an ar.DecisionTree"):
        ar.Knob(decision_tree={"thresholds": [1]})
    with pytest.raises(ValueError, match="has no knob"):
        ar.get_config(lambda x: x)

    st = ar.Knob(static_transform=ar.StaticTransform("loop_perforate", 2))

    @st
    def g(x):
        return x
    with pytest.raises(ValueError, match="already has a static_transform"):
        st(g)


def test_transform_types_come_from_the_compiler():
    kinds = ar.transform_types()
    assert "loop_perforate" in kinds and "decode_quantize" in kinds
    assert len(kinds) == len(set(kinds)) >= 8
