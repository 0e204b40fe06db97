package io.echomq.architecture;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.library.dependencies.SliceRule;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The public API names only public types: no parameter, return, supertype, type argument,
 * thrown type or public field of a public or protected member of a type in a public
 * package is a type of an {@code internal} package. The public packages are the ones
 * {@code docs/compatibility.md} lists; every other package is {@code internal}.
 *
 * @author EchoMQ
 */
class ApiBoundaryTests {

	@Test
	void publicSignaturesNameNoInternalType() {
		assertThat(leaks(Modules.main())).isEmpty();
	}

	@Test
	void packagesHaveNoCycle() {
		SliceRule rule = slices().matching("io.echomq.(**)").should().beFreeOfCycles();
		rule.check(Modules.main());
	}

	@Test
	void onlyTheAutoConfigurationReachesIntoInternalPackages() {
		Set<String> offenders = new TreeSet<>();
		for (JavaClass type : Modules.main()) {
			String module = Modules.moduleOf(type);
			if (Modules.MAY_USE_INTERNALS.contains(module) || Modules.isInternal(type)) {
				continue;
			}
			type.getDirectDependenciesFromSelf()
				.stream()
				.filter((dependency) -> Modules.isInternal(dependency.getTargetClass()))
				.forEach((dependency) -> offenders
					.add(module + ": " + type.getName() + " uses " + dependency.getTargetClass().getName()));
		}
		assertThat(offenders).isEmpty();
	}

	@Test
	void applicationsUseOnlyThePublicApi() {
		Set<String> offenders = new TreeSet<>();
		for (JavaClass type : Modules.applications()) {
			type.getDirectDependenciesFromSelf()
				.stream()
				.filter((dependency) -> Modules.isInternal(dependency.getTargetClass()))
				.forEach((dependency) -> offenders
					.add(type.getName() + " uses " + dependency.getTargetClass().getName()));
		}
		assertThat(Modules.applications()).isNotEmpty();
		assertThat(offenders).isEmpty();
	}

	static List<String> leaks(JavaClasses classes) {
		List<String> leaks = new ArrayList<>();
		for (JavaClass type : classes) {
			if (!Modules.isApi(type)) {
				continue;
			}
			Set<JavaClass> named = new TreeSet<>((a, b) -> a.getName().compareTo(b.getName()));
			type.getRawSuperclass().ifPresent(named::add);
			type.getInterfaces().forEach((supertype) -> named.addAll(supertype.getAllInvolvedRawTypes()));
			type.getSuperclass().ifPresent((supertype) -> named.addAll(supertype.getAllInvolvedRawTypes()));
			internals(named).forEach((internal) -> leaks.add(type.getName() + " extends or implements " + internal));
			for (JavaField field : type.getFields()) {
				if (visible(field.getModifiers())) {
					internals(field.getType().getAllInvolvedRawTypes())
						.forEach((internal) -> leaks.add(field.getFullName() + " is of " + internal));
				}
			}
			for (JavaCodeUnit member : type.getCodeUnits()) {
				if (!visible(member.getModifiers()) || member.getName().equals("<clinit>")) {
					continue;
				}
				Set<JavaClass> signature = new TreeSet<>((a, b) -> a.getName().compareTo(b.getName()));
				signature.addAll(member.getReturnType().getAllInvolvedRawTypes());
				for (JavaType parameter : member.getParameterTypes()) {
					signature.addAll(parameter.getAllInvolvedRawTypes());
				}
				member.getThrowsClause().getTypes().forEach(signature::add);
				internals(signature).forEach((internal) -> leaks.add(member.getFullName() + " names " + internal));
			}
		}
		return leaks;
	}

	private static List<String> internals(Set<JavaClass> types) {
		return types.stream().filter(Modules::isInternal).map(JavaClass::getName).toList();
	}

	private static boolean visible(Set<JavaModifier> modifiers) {
		return modifiers.contains(JavaModifier.PUBLIC) || modifiers.contains(JavaModifier.PROTECTED);
	}

}
