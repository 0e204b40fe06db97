package io.echomq.architecture;

import java.util.Set;
import java.util.TreeSet;

import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaCodeUnitAccess;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.domain.JavaMethodReference;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaStaticInitializer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine is no hub: it builds its parts and hands them out, once, to what is built
 * with it.
 * <ul>
 * <li>No method of a class outside the engine's package calls an accessor of the engine
 * (a non-static method of {@code Engine} that the public {@code EchoMqEngine} handle does
 * not declare): a class resolves the parts it uses where it is built, in a constructor, a
 * static initializer, a static factory (a static method returning its own class) or a
 * {@code @Bean} method, and keeps them in fields; no class takes a method reference to an
 * accessor, which would call it at each use. The benchmark harness is left out.</li>
 * <li>No class of the engine's package but {@code Engine} itself depends on
 * {@code Engine}: the parts are given the parts they use, and do not reach back.</li>
 * </ul>
 *
 * @author EchoMQ
 */
class EnginePartsTests {

	static final String ENGINE = "io.echomq.core.internal.Engine";

	static final String ENGINE_PACKAGE = "io.echomq.core.internal";

	static final String HANDLE = "io.echomq.core.EchoMqEngine";

	static final String BEAN = "org.springframework.context.annotation.Bean";

	@Test
	void onlyWhatIsBeingBuiltCallsTheEnginesAccessors() {
		assertThat(accessorCalls()).isEmpty();
	}

	@Test
	void noPartOfTheEngineDependsOnTheEngine() {
		Set<String> offenders = new TreeSet<>();
		for (JavaClass type : Modules.main()) {
			if (!type.getPackageName().equals(ENGINE_PACKAGE) || outermost(type).getName().equals(ENGINE)) {
				continue;
			}
			type.getDirectDependenciesFromSelf()
				.stream()
				.filter((dependency) -> dependency.getTargetClass().getName().equals(ENGINE))
				.forEach((dependency) -> offenders.add(dependency.getDescription()));
		}
		assertThat(offenders).isEmpty();
	}

	static Set<String> accessorCalls() {
		Set<String> offenders = new TreeSet<>();
		for (JavaClass type : Modules.main()) {
			if (type.getPackageName().equals(ENGINE_PACKAGE)
					|| type.getPackageName().startsWith("io.echomq.benchmark")) {
				continue;
			}
			for (JavaMethodCall call : type.getMethodCallsFromSelf()) {
				if (isAccessor(call) && !isBuilding(call.getOrigin())) {
					offenders.add(call.getDescription());
				}
			}
			// a reference defers the call to whenever it is used, wherever it was taken
			for (JavaMethodReference reference : type.getMethodReferencesFromSelf()) {
				if (isAccessor(reference)) {
					offenders.add(reference.getDescription());
				}
			}
		}
		return offenders;
	}

	private static boolean isAccessor(AccessTarget.CodeUnitAccessTarget target) {
		if (!target.getOwner().getName().equals(ENGINE)) {
			return false;
		}
		return target.resolveMember()
			.filter(JavaMethod.class::isInstance)
			.map((method) -> isAccessor((JavaMethod) method))
			.orElse(true);
	}

	private static boolean isAccessor(JavaCodeUnitAccess<?> access) {
		return isAccessor(access.getTarget());
	}

	private static boolean isAccessor(JavaMethod method) {
		if (method.getModifiers().contains(JavaModifier.STATIC) || !method.getOwner().isAssignableTo(HANDLE)) {
			return false;
		}
		return !method.getOwner().getName().equals(HANDLE) && !declaredByHandle(method)
				&& !method.getOwner().getName().equals(Object.class.getName());
	}

	private static boolean declaredByHandle(JavaMethod method) {
		return method.getOwner()
			.getAllRawInterfaces()
			.stream()
			.filter((type) -> type.getName().equals(HANDLE) || type.isAssignableTo(AutoCloseable.class))
			.flatMap((type) -> type.getMethods().stream())
			.anyMatch((declared) -> declared.getName().equals(method.getName())
					&& declared.getRawParameterTypes().equals(method.getRawParameterTypes()));
	}

	private static boolean isBuilding(JavaCodeUnit origin) {
		if (origin.isConstructor() || origin.getName().equals(JavaStaticInitializer.STATIC_INITIALIZER_NAME)) {
			return true;
		}
		if (origin.isAnnotatedWith(BEAN)) {
			return true;
		}
		return origin.getModifiers().contains(JavaModifier.STATIC)
				&& origin.getRawReturnType().equals(origin.getOwner());
	}

	private static JavaClass outermost(JavaClass type) {
		JavaClass current = type;
		while (current.getEnclosingClass().isPresent()) {
			current = current.getEnclosingClass().get();
		}
		return current;
	}

}
